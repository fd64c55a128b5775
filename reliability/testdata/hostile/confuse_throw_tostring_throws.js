// status: failed
// code: internal_error
throw { toString() { throw new Error("t"); } };
