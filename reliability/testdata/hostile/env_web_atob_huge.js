// status: failed
// code: internal_error | timeout
// atob and btoa over strings near the heap limit fail cleanly.
let s = "QUJD";
for (;;) { s = atob(btoa(s + s)) + s; }
