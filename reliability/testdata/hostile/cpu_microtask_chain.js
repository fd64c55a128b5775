// status: failed
// code: internal_error
// error: code mode memory limit exceeded
// An endless microtask chain that keeps what it allocates, so the memory
// limit is reached inside a promise job (where the collector alone once
// decided between the limit and the deadline, by the heap's layout).
const kept = [];
const spin = () => { kept.push(new Array(64).fill(kept.length)); return Promise.resolve().then(spin); };
spin();
await new Promise(() => {});
