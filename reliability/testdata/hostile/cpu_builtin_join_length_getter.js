// status: failed
// code: timeout
// error: code mode timeout exceeded
// mcp: yes
// The bridge's length guard reads length once; join reads it again.
let c = 0;
const o = { get length() { return c++ ? 2 ** 32 - 1 : 0; } };
return Array.prototype.join.call(o, "");
