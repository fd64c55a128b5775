// status: failed
// code: internal_error
// error: Error: tool input must be JSON-serializable
return await tools.callValue("echo", { n: 1n });
