// status: failed
// code: timeout
const o = { toJSON() { return { o }; } };
return o;
