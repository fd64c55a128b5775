// status: failed
// code: internal_error
// error: Error: Unknown tool id: exec
return await tools.callValue("exec", { code: "return 1" });
