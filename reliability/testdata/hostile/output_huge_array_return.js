// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
return Array.from({ length: 1e5 }, (_, i) => i);
