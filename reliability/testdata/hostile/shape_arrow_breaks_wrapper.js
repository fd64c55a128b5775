// status: failed
// code: internal_error
// error: SyntaxError
async () => 1)(); return globalThis; ((
