// status: completed
// value: {"open":3,"titles":["SHP-107 is 31 t but invoiced as 13 t","Build bot posts twice on release days","Finance wants unpaid shipments over 10 t each Monday"]}
```
const open = await Issues.list({ state: "open" });
return { open: open.length, titles: open.map(i => i.title) };
```
