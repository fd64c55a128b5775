// status: failed
// code: timeout | output_limit_exceeded
// One console.log of a million empty objects (three levels of 100 arrays,
// each printed in full at the default depth) spends no part of console's
// 1 MiB text budget on them, so it runs until the deadline stops it.
const e = {};
let a = Array(100).fill(e);
a = Array(100).fill(a);
a = Array(100).fill(a);
console.log(a);
return "printed";
