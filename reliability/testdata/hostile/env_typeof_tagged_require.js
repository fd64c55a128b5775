// status: failed
// code: invalid_input
// error: code mode module access is disabled.
return typeof process.getBuiltinModule`fs`;
