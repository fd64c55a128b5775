// status: completed
// value: ["MCP namespace tools accept one object argument.", "MCP namespace tools accept one object argument.", "Missing required MCP namespace argument: q"]
const out = [];
for (const f of [() => MCP.docs.searchDocs("q"), () => MCP.docs.searchDocs({ q: 1 }, 2), () => MCP.docs.searchDocs({})]) {
  try { await f(); out.push("ok"); } catch (e) { out.push(e.message); }
}
return out;
