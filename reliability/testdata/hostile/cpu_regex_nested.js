// mcp: yes
// status: failed
// code: timeout
// error: code mode timeout exceeded
return /^(\w+\s?)*$/.test("a".repeat(40) + "!");
