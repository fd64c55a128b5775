// status: failed
// code: internal_error
return String(7n ** (2n ** 40n));
