// status: completed
// value: {"files":["mcp/index.d.ts","mcp/docs.d.ts","mcp/everything.d.ts","mcp/filesystem.d.ts","mcp/memory.d.ts"],"createEntities":true,"readTextFile":true}
const files = await API.list();
const memory = await API.read("mcp/memory.d.ts");
const fsDts = await API.read("/mcp/filesystem.d.ts");
return {
  files: files.map(f => f.path),
  createEntities: memory.includes("createEntities"),
  readTextFile: fsDts.includes("readTextFile"),
};
