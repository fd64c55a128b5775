// status: failed
// code: internal_error
return "x".repeat(2 ** 29).length;
