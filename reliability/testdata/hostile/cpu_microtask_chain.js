// status: failed
// code: timeout
// error: code mode timeout exceeded
const spin = () => Promise.resolve().then(spin);
spin();
await new Promise(() => {});
