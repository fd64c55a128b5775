// status: completed
// value: ["MCP operation mcp:docs:prompts/get is not allowed in this run.", ["secret"], "memo"]
// The run denies prompts/get: the prompt may be listed and resources read,
// but its text is never fetched.
const out = [];
try { out.push(await MCP.docs.prompts.get({ name: "secret" })); } catch (e) { out.push(e.message); }
out.push((await MCP.docs.prompts.list()).prompts.map((p) => p.name));
out.push((await MCP.docs.resources.read({ uri: "memo://one" })).contents[0].text);
return out;
