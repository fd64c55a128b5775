// status: failed
// code: timeout
// error: code mode timeout exceeded
const a = new Float64Array(900000);
for (let i = 0; i < a.length; i++) a[i] = (i * 7919) % 1000003;
for (;;) a.sort();
