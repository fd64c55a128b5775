// status: failed
// code: internal_error | timeout
// clearTimeout takes a timer out of the 256 bound at once, but its request
// stays queued until the cell yields; a loop that never yields is stopped by
// the heap limit (or the deadline), and nothing of it outlives the run.
for (;;) clearTimeout(setTimeout(() => {}, 0));
