// mcp: yes
// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// typeof of a loader's name is allowed, but not of a call through it.
return typeof require("fs");
