// status: failed
// code: invalid_input
// error: code mode module access is disabled.
return require("child_process").execSync("id").toString();
