// status: completed
// value: ["TypeError", "TypeError", 6000]
// swarm: yes
// phase and log floods with odd values (huge strings, symbols, BigInts,
// throwing proxies, cycles): none throws, none holds host state, the cell
// finishes; only a missing argument is a TypeError.
const big = "y".repeat(1 << 20);
const cyclic = {};
cyclic.self = cyclic;
const odd = [big, Symbol("s"), 10n, new Proxy({}, { get() { throw new Error("trap"); } }), cyclic, null, () => 1];
let n = 0;
for (let i = 0; i < 3000; i++) {
  phase(odd[i % odd.length]);
  log(i);
  n += 2;
}
const errors = [];
for (const f of [() => phase(), () => log()]) {
  try { f(); } catch (e) { errors.push(e.name); }
}
return [...errors, n];
