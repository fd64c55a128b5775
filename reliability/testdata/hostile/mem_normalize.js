// status: failed
// code: internal_error
// error: code mode memory limit exceeded
// String.prototype.normalize stopped by the heap limit threw QuickJS's "no
// exception" marker, so the cell failed with the text "[uninitialized]".
// Doubling finds the heap limit, whatever it is.
for (let n = 16; n <= 28; n++) "a".repeat(2 ** n).normalize("NFD");
return "survived";
