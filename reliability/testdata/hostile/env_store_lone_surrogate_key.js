// status: completed
// value: ["TypeError","TypeError","undefined"]
// Lone surrogates would reach the host as U+FFFD, making two keys one.
const out = [];
for (const k of ["\uD800", "a\uDC00"]) {
  try { await store(k, 1); out.push("stored"); } catch (e) { out.push(e.name); }
}
out.push(typeof (await load("\uFFFD")));
return out;
