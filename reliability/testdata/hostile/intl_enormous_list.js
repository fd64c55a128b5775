// status: completed
// value: ["RangeError: Intl.ListFormat: lists of more than 100000 items are not formatted",99999,"RangeError"]
// An endless iterable is cut off with an error instead of filling memory; a
// long but finite list formats.
const lf = new Intl.ListFormat("en-US", { style: "narrow", type: "unit" });
const out = [];
try { lf.format((function* () { for (;;) yield "x" })()) } catch (e) { out.push(e.name + ": " + e.message) }
out.push(lf.format(Array(50000).fill("y")).length);
try { new Intl.NumberFormat(new Array(200000).fill("en")) } catch (e) { out.push(e.name) }
return out;
