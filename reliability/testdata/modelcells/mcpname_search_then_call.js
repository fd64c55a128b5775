// status: completed
// value: {"tool":"mcp:filesystem:read_text_file","firstLine":"# Release 1.4 checklist"}
const [hit] = await MCP.$search("read text file", { limit: 1 });
const res = await MCP[hit.server][hit.name]({ path: "notes/todo.md" });
return { tool: hit.id, firstLine: res.content[0].text.split("\n")[0] };
