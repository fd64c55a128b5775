// status: failed
// code: internal_error
// error: Error: Code mode namespace path is not callable
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && "path" in this && "args" in this) return { id: this.id, path: "__proto__", args: [] };
  return this;
} });
return await Issues.list();
