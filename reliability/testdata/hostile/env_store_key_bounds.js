// status: completed
// value: [1,"TypeError","TypeError","TypeError"]
// A key of 256 three-byte characters (768 bytes) is one key; 257 characters,
// an empty key and a non-string key are refused before the host.
const wide = "\u4e00".repeat(256);
await store(wide, 1);
const out = [await load(wide)];
for (const k of ["\u4e00".repeat(257), "", 42]) {
  try { await store(k, 1); out.push("stored"); } catch (e) { out.push(e.name); }
}
return out;
