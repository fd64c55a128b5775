// mcp: yes
// status: failed
// code: invalid_input
// error: code mode module access is disabled.
return r\u0065quire("fs");
