// status: completed
// value: true
// MCP.$search with a huge query, a huge limit and odd options answers with
// a bounded list, or refuses clearly.
const out = [];
for (const [q, o] of [["x".repeat(1 << 20), { limit: 1e9 }], ["docs", { limit: -5 }], [{ toString() { return "docs"; } }, null], ["", { limit: "all" }], ["search", { limit: 2 ** 53 }]]) {
  try { const r = await MCP.$search(q, o); out.push(Array.isArray(r) && r.length <= 50); } catch (e) { out.push(typeof e.message === "string" && e.message.length < 1000); }
}
return out.every((x) => x === true);
