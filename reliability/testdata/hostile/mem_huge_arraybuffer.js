// status: failed
// code: internal_error
return new ArrayBuffer(2 ** 31).byteLength;
