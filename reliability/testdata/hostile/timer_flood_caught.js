// status: completed
// value: 256
// mcp: yes
let n = 0;
try { for (;;) { setTimeout(() => {}, 1e9); n++; } } catch (e) {}
return n;
