// status: completed
// value: ["Error: style getter","Error: timeZone getter","TypeError: trap","Error: valueOf","Error: toString"]
// Options objects that throw from getters, proxy traps or conversions: the
// cell's own error comes back, once, and nothing is left half built.
const out = [];
const attempts = [
  () => new Intl.NumberFormat("en-US", { get style() { throw new Error("style getter") } }),
  () => new Date(0).toLocaleString("en-US", { get timeZone() { throw new Error("timeZone getter") } }),
  () => new Intl.Collator("en", new Proxy({}, { get() { throw new TypeError("trap") } })),
  () => (5).toLocaleString("en-US", { maximumFractionDigits: { valueOf() { throw new Error("valueOf") } } }),
  () => "a".localeCompare("b", ["en", { toString() { throw new Error("toString") } }]),
];
for (const f of attempts) try { f(); out.push("no error") } catch (e) { out.push(e.name + ": " + e.message) }
return out;
