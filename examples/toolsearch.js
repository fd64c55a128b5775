// A tool_search_code body: find the unpaid shipments, and the handbook page
// about them from the docs MCP server. It must finish within its timeout:
// Tool Search has no wait.
const [list] = await tools.search("shipments list");
const unpaid = (await tools.callValue(list.id, {})).filter((s) => !s.paid);
const [docs] = await tools.search("handbook search");
const page = await tools.callValue(docs.id, { query: "unpaid shipments" });
return {
  unpaid: unpaid.map((s) => s.id),
  handbook: docs.id,
  found: page.content.length > 0,
};
