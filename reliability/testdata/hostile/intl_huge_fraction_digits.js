// status: completed
// value: ["RangeError: maximumFractionDigits value is out of range.","RangeError: minimumFractionDigits value is out of range.","RangeError: maximumSignificantDigits value is out of range.",410]
// Digit counts past ECMA-402's bounds are RangeErrors; the largest allowed
// ones give a bounded string even for the largest double.
const out = [];
for (const o of [{ maximumFractionDigits: 1e9 }, { minimumFractionDigits: Infinity }, { maximumSignificantDigits: 22 }])
  try { new Intl.NumberFormat("en-US", o); out.push("built") } catch (e) { out.push(e.name + ": " + e.message) }
out.push((1.7976931348623157e308).toLocaleString("en-US", { minimumFractionDigits: 100, useGrouping: false }).length);
return out;
