// status: completed
// value: 10000
let n = 0;
for (let i = 0; i < 10000; i++) Promise.resolve().then(() => n++);
await null;
await null;
return n;
