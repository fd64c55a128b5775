// status: failed
// code: timeout
// error: code mode timeout exceeded
const a = Array.from({ length: 1000 }, (_, i) => i);
a.sort(() => { for (;;) {} });
