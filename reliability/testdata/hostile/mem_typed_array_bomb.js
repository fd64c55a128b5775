// status: failed
// code: internal_error
// error: code mode memory limit exceeded
const a = [];
for (;;) a.push(new Uint8Array(1 << 20));
