// status: completed
// value: {"open":2,"ids":["ISS-2","ISS-3"]}
```ts
type Issue = { id: string; title: string; state: "open" | "closed" };
const open: Issue[] = await Issues.list({ state: "open" });
const notShipping = open.filter((i: Issue) => !/SHP-\d+/.test(i.title));
return { open: notShipping.length, ids: notShipping.map((i) => i.id) };
```
