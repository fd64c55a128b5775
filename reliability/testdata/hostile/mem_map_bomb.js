// status: failed
// code: internal_error
// error: code mode memory limit exceeded
const m = new Map();
for (let i = 0; ; i++) m.set(i, "v".repeat(1000) + i);
