// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// mcp: yes
import fs from "fs";
return fs.readFileSync("/etc/passwd", "utf8");
