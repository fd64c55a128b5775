// status: completed
// value: ["RangeError",94,"RangeError",true]
// A megabyte zone name or locale tag is refused with a short message.
const out = [];
try { new Intl.DateTimeFormat("en-US", { timeZone: "Z".repeat(1 << 20) }) } catch (e) { out.push(e.name, e.message.length) }
try { new Intl.NumberFormat("en" + "-u-ab-cd".repeat(1 << 17)) } catch (e) { out.push(e.name, e.message.length < 100) }
return out;
