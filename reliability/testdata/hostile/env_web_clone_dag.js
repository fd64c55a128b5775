// status: completed
// value: true
// A DAG with 2^40 paths clones in linear time (shared references clone
// once), so it finishes long before the deadline.
let o = { v: 1 };
for (let i = 0; i < 40; i++) o = { a: o, b: o };
const c = structuredClone(o);
return c.a === c.b && c.a.a.a === c.b.b.b;
