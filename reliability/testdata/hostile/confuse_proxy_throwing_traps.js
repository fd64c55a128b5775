// status: failed
// code: internal_error
// error: Error: get
// mcp: yes
return new Proxy({}, { get() { throw new Error("get"); }, ownKeys() { throw new Error("keys"); }, getOwnPropertyDescriptor() { throw new Error("desc"); } });
