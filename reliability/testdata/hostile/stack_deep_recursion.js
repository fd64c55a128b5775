// mcp: yes
// status: failed
// code: internal_error
// error: RangeError: Maximum call stack size exceeded
const f = (n) => f(n + 1) + 1;
return f(0);
