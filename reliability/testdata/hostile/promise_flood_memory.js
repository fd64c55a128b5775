// status: failed
// code: internal_error
// error: code mode memory limit exceeded
let n = 0;
for (let i = 0; i < 1e6; i++) Promise.resolve().then(() => n++);
await null;
return n;
