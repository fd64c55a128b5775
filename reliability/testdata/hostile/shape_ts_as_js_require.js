// status: failed
// code: invalid_input
// error: code mode module access is disabled.
const path: string = "/etc/passwd";
const text = require("fs").readFileSync(path as string, "utf8");
