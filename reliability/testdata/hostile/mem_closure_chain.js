// status: failed
// code: internal_error
// error: code mode memory limit exceeded
let f = () => 0;
for (;;) { const g = f; f = () => g() + 1; }
