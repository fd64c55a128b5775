// status: failed
// code: internal_error
const p = new Proxy({}, { get: (t, k) => p[k] });
return p.x;
