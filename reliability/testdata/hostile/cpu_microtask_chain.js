// status: failed
// code: internal_error
// error: code mode memory limit exceeded
const spin = () => Promise.resolve().then(spin);
spin();
await new Promise(() => {});
