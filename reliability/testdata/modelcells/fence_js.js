// status: completed
// value: ["SHP-102","SHP-103","SHP-105","SHP-107","SHP-110","SHP-111"]
```js
const shipments = await tools.shipping_list();
return shipments
  .filter((s) => !s.paid && s.tons > 10)
  .map((s) => s.id);
```
