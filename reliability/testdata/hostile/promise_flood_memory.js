// status: failed
// code: internal_error
// Out of memory while queuing jobs is either QuickJS's out-of-memory error or,
// when even that error cannot be allocated, a thrown null: which one depends
// on the template's layout, so only the code is stated. Either way the cell
// fails and the host stays healthy.
let n = 0;
for (let i = 0; i < 1e6; i++) Promise.resolve().then(() => n++);
await null;
return n;
