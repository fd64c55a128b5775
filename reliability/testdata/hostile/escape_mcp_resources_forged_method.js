// status: failed
// code: internal_error
// error: Error: MCP operation mcp:docs:prompts/get is not allowed in this run.
// An allowed prompts.list request rewritten on its way out into the denied
// prompts/get: the host judges the method it receives.
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && "method" in this && "server" in this) return { server: this.server, method: "prompts/get", params: { name: "secret" } };
  return this;
} });
return await MCP.docs.prompts.list();
