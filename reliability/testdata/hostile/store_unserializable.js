// status: completed
// value: ["TypeError","TypeError","TypeError","TypeError"]
const out = [];
const cyclic = {}; cyclic.self = cyclic;
for (const f of [() => store("k", cyclic), () => store("k", 1n), () => store("k".repeat(300), 1), () => store("k", Symbol("s"))]) {
  try { await f(); out.push("stored") } catch (e) { out.push(e.name) }
}
return out;
