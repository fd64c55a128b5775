// status: failed
// code: timeout
// error: code mode timeout exceeded
const e = new Error("m");
Object.defineProperty(e, "message", { get() { for (;;) {} } });
throw e;
