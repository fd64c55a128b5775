// status: failed
// code: timeout
// wasmtime-code: internal_error | timeout
// (wasmtime's native stack overflows after about 1.5 s of recursion, which
// races the 2 s deadline on a busy machine)
const o = { toJSON() { return { o }; } };
return o;
