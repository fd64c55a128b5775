// status: failed
// code: timeout
// error: code mode timeout exceeded
return /(?<=(a+)+)b/.test("a".repeat(50000));
