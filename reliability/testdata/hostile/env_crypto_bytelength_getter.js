// status: completed
// value: ["RangeError","TypeError","TypeError"]
// The size bound reads the typed array's own length, not a property the cell
// puts on it; a look-alike object is no typed array.
const out = [];
const big = new Uint8Array(1 << 20);
Object.defineProperty(big, "byteLength", { get: () => 16 });
const fake = { buffer: new ArrayBuffer(8), byteOffset: 0, byteLength: 8, [Symbol.toStringTag]: "Uint8Array" };
const floats = new Float32Array(4);
for (const v of [big, fake, floats]) {
  try { crypto.getRandomValues(v); out.push("filled"); } catch (e) { out.push(e.name); }
}
return out;
