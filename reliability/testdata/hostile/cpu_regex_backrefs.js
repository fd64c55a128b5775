// status: failed
// code: timeout
// error: code mode timeout exceeded
return /^(a|a?)+$/.test("a".repeat(60) + "b");
