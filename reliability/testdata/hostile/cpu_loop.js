// status: failed
// code: timeout
// error: code mode timeout exceeded
// mcp: yes
while (true) {}
