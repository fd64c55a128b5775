// mcp: yes
// status: failed
// code: internal_error
// error: code mode memory limit exceeded
let s = "x";
for (;;) s += s;
