// status: failed
// code: output_limit_exceeded
let o = {};
for (let i = 0; i < 20000; i++) o = { o };
return o;
