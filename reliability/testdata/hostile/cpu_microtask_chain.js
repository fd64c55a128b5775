// status: failed
// code: internal_error | timeout
// An endless microtask chain is contained either way: whether QuickJS's
// collector keeps up (the deadline ends it) or not (the memory limit does)
// depends on the heap's layout, which any change to the catalog moves.
const spin = () => Promise.resolve().then(spin);
spin();
await new Promise(() => {});
