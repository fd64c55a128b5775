// status: failed
// code: internal_error
// error: code mode memory limit exceeded
return (await tools.callValue("big", { n: 9 << 20 })).length;
