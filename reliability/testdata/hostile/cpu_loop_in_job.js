// status: failed
// code: timeout
// error: code mode timeout exceeded
Promise.resolve().then(() => { for (;;) {} });
await new Promise(() => {});
