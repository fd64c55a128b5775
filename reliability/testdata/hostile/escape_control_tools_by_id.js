// status: completed
// value: [false, false, false, false, false, false]
const ids = ["openclaw:core:exec", "openclaw:core:wait", "tool_search_code", "tool_search", "tool_describe", "tool_call"];
const out = [];
for (const id of ids) {
  try { await tools.callValue(id, {}); out.push(true); } catch (e) { out.push(false); }
}
return out;
