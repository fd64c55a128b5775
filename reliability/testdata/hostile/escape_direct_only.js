// status: failed
// code: internal_error
// error: Error: Unknown tool id: screenshot
return await tools.callValue("screenshot", {});
