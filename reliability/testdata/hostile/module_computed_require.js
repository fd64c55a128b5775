// status: failed
// code: internal_error
// error: TypeError
return globalThis["req" + "uire"]("fs");
