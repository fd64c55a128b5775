// status: failed
// code: internal_error | timeout
// Buffers doubling past the heap limit fail the cell cleanly: the bytes
// live in the VM, bounded by its memory limit, never in the host.
let b = Buffer.from("x");
for (;;) b = Buffer.concat([b, b, Buffer.from(b.toString("base64"), "base64")]);
