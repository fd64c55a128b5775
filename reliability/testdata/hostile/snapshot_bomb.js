// mcp: yes
// status: failed
// code: snapshot_limit_exceeded
// error: code mode snapshot limit exceeded
const a = new Int32Array(300000);
let x = 2463534242;
for (let i = 0; i < a.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; a[i] = x; }
await tools.callValue("sleep", { ms: 5000 });
return a.length;
