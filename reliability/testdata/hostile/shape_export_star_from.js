// status: failed
// code: invalid_input
// error: code mode module access is disabled.
export * from "fs";
