// status: failed
// code: timeout
// error: code mode timeout exceeded
const a = [];
a.length = 2 ** 32 - 1;
return [].concat(a).length;
