// status: failed
// code: internal_error
const e = new Error("m");
Object.defineProperty(e, "name", { get() { throw new Error("n"); } });
throw e;
