// mcp: yes
// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
return "x".repeat(1e6);
