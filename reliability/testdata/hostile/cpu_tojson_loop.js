// status: failed
// code: timeout
// error: code mode timeout exceeded
return { toJSON() { for (;;) {} } };
