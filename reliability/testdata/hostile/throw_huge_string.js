// status: failed
// code: internal_error
// error: unprintable exception
throw "x".repeat(4e6);
