// status: failed
// code: internal_error
// error: Error: Unknown tool id: wait
return await tools.call("wait", { runId: "cm_x" });
