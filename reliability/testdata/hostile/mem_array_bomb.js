// mcp: yes
// status: failed
// code: internal_error
// error: code mode memory limit exceeded
const a = [];
for (;;) a.push(new Array(1e5).fill(1.5));
