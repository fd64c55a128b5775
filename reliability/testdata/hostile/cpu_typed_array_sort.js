// status: failed
// code: timeout
// error: code mode timeout exceeded
const a = new Float64Array(800000); // 6.4 MB of the corpus's 8 MiB heap, beside the template's own
for (let i = 0; i < a.length; i++) a[i] = (i * 7919) % 1000003;
for (;;) a.sort();
