// status: failed
// code: internal_error
// error: Error: tool input must be JSON-serializable: g
return await tools.callValue("echo", { get x() { throw new Error("g"); } });
