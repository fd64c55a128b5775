// status: completed
// value: [5,true]
// The session's total bound holds against many keys of large values.
const v = "x".repeat(200000);
let n = 0, msg = "";
for (let i = 0; i < 100; i++) {
  try { await store("k" + i, v); n++; } catch (e) { msg = e.message; break; }
}
for (let i = 0; i < n; i++) await store("k" + i, undefined);
return [n, msg.includes("session state full")];
