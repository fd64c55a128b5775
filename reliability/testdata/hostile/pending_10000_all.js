// status: failed
// code: internal_error
// error: Error: too many pending code mode tool calls
// mcp: yes
return (await Promise.all(Array.from({ length: 10000 }, () => tools.callValue("count", {})))).length;
