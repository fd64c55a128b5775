// status: failed
// code: internal_error
// error: code mode memory limit exceeded
const ps = [];
for (;;) ps.push(new Promise(() => {}), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
