// status: failed
// code: internal_error
throw null;
