// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
return await tools.callValue("echo", { s: "x".repeat(1e6) });
