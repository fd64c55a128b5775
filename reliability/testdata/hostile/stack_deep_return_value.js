// status: failed
// code: output_limit_exceeded
// Deep enough for any JSON encoder's depth limit; not 20,000 deep, where
// QuickJS's cycle check makes JSON.stringify quadratic (about 2.5 s), so the
// outcome would race the 2 s deadline.
let o = {};
for (let i = 0; i < 5000; i++) o = { o };
return o;
