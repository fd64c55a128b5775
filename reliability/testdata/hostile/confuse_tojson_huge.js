// status: failed
// code: output_limit_exceeded
return { toJSON() { return "x".repeat(1e6); } };
