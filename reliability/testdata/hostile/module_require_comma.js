// status: failed
// code: invalid_input
// error: code mode module access is disabled.
return (0, require)("fs");
