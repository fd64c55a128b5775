// status: failed
// code: internal_error
// error: Error: Unknown code mode namespace: tracker.admin
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && "path" in this && "args" in this) return { id: "tracker.admin", path: this.path, args: [] };
  return this;
} });
return await namespaces.Issues.list();
