// mcp: yes
// status: completed
// value: [false, false, false, false, false, false]
const out = [];
const ids = ["openclaw:core:../tracker:admin_reset", "openclaw:tracker:admin_reset\u0000", "openclaw:tracker:issues_delete/../admin_reset", "mcp:docs:search_docs", "openclaw:core:screenshot", "client:client:admin_reset"];
for (const id of ids) {
  try { await tools.describe(id); out.push(true); } catch (e) { out.push(false); }
}
return out;
