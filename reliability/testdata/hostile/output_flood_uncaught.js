// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
// An uncaught output error is the limit's failure, not an internal error
// with host frames.
for (;;) json([1, 2, 3]);
