// status: failed
// code: internal_error
// error: code mode memory limit exceeded
let o = {};
for (;;) o = { o, pad: [o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o] };
