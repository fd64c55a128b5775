// status: completed
// value: []
// mcp: yes
const hits = await tools.search("exec wait tool_search tool_call tool_describe screenshot admin_reset", { limit: 50 });
return hits.map((h) => h.id).filter((id) => /exec|wait|tool_|screenshot|admin/.test(id)).concat(ALL_TOOLS.map((t) => t.id).filter((id) => /:(exec|wait|screenshot|admin_reset)$/.test(id)));
