// status: failed
// code: timeout
// error: code mode timeout exceeded
try { for (;;) {} } finally { for (;;) {} }
