// status: failed
// code: internal_error | timeout
// A Blob of ever more copies of itself fails at the memory limit.
let blob = new Blob(["seed"]);
for (;;) blob = new Blob([blob, blob, blob]);
