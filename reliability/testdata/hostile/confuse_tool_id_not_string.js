// status: completed
// value: ["id must be a string.", "id must be a string.", "query must be a string."]
const out = [];
for (const f of [() => tools.callValue({ toString() { return "count"; } }), () => tools.describe(42), () => tools.search({ q: 1 })]) {
  try { await f(); out.push("ok"); } catch (e) { out.push(e.message); }
}
return out;
