// status: failed
// code: internal_error
return JSON.parse("[".repeat(1e6));
