// status: completed
// value-contains: "mcp:everything:get-sum"
const hits = await MCP.$search("sum of two numbers", { limit: 3 });
return hits.map(h => h.id);
