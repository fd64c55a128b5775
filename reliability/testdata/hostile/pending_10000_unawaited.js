// mcp: yes
// status: failed
// code: internal_error
// error: Error: too many pending code mode tool calls
for (let i = 0; i < 10000; i++) tools.callValue("sleep", { ms: 10 });
return 1;
