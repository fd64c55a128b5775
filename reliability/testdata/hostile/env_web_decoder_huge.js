// status: failed
// code: internal_error
// error: code mode memory limit exceeded
// TextDecoder over 50 MB: the heap limit, not the host, stops it.
const b = new Uint8Array(50 * 1024 * 1024);
return new TextDecoder().decode(b).length;
