// status: completed
// value: ["tool ids and names are at most 1024 bytes.", "tool ids and names are at most 1024 bytes."]
// Ids and names are resolved on the cell's goroutine, where an unknown one is
// compared with every entry: a megabyte of id is refused before that.
const out = [];
for (const f of [() => tools.callValue("x".repeat(1 << 20)), () => tools.describe("y".repeat(1 << 20))]) {
  try { await f(); out.push("ran"); } catch (e) { out.push(e.message); }
}
return out;
