// status: completed
// value: [true,"deep"]
// A long chain of AbortSignal.any aborts every follower without the host
// noticing: the work is the guest's own, bounded by its stack and deadline.
const root = new AbortController();
let s = root.signal;
for (let i = 0; i < 2000; i++) s = AbortSignal.any([s]);
root.abort("deep");
return [s.aborted, s.reason];
