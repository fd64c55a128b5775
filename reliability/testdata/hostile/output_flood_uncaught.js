// status: failed
// code: internal_error
// error: Error: code mode output limit exceeded
for (;;) json([1, 2, 3]);
