// status: completed
// value: [true, true, "host failure at /etc/secret", false]
try { await tools.callValue("fail", {}); } catch (e) {
  return [Object.getPrototypeOf(e) === Error.prototype, e.constructor === Error, e.message, Object.getOwnPropertyNames(e).some((k) => !["message", "stack"].includes(k))];
}
