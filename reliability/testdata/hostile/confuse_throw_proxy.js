// status: failed
// code: internal_error
throw new Proxy({}, { get() { throw new Error("x"); } });
