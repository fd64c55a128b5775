// status: failed
// code: timeout
// error: code mode timeout exceeded
const a = [];
a.length = 2 ** 32 - 1;
return a.values().drop(2 ** 32 - 2).next().done;
