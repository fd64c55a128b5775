// MCP servers through the MCP namespace and the virtual API files. The demo
// catalog includes an in-process MCP server named docs (no Node, no child
// process) with a tool, the resource memo://one and the prompt brief.
//
//   codemode exec examples/mcp.js
const files = await API.list("mcp");
const declarations = await API.read("mcp/docs.d.ts");
const found = await MCP.docs.searchDocs({ query: "release" });
const memo = await MCP.docs.resources.read({ uri: "memo://one" });
const brief = await MCP.docs.prompts.get({ name: "brief", arguments: { topic: "release" } });
return {
  files: files.map((f) => f.path),
  declaresSearchDocs: declarations.includes("function searchDocs("),
  pages: found.structuredContent.pages.map((p) => p.slug),
  memo: memo.contents[0].text,
  brief: brief.messages[0].content.text,
};
