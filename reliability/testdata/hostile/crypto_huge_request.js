// status: completed
// value: "RangeError"
try { crypto.getRandomValues(new Uint8Array(1 << 17)); return "filled" } catch (e) { return e.name }
