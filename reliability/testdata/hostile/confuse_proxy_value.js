// status: completed
// value: {"a":1}
return new Proxy({ a: 1 }, {});
