// status: failed
// code: internal_error
// error: Error: id must be a string.
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (this && "id" in this && "input" in this) return { id: ["openclaw:tracker:admin_reset"], input: {} };
  return this;
} });
return await tools.callValue("count");
