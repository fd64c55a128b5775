// status: failed
// code: internal_error
// bug: a thrown 1 MB string comes back whole as the error message: failed results are not bounded by maxOutputBytes
throw "x".repeat(1e6);
