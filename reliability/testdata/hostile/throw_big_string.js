// status: failed
// code: internal_error
throw "x".repeat(1e6);
