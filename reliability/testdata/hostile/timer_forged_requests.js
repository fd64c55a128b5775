// status: completed
// value: ["ok"]
// A cell cannot reach the bridge's timer ops except through setTimeout, and
// ids it invents for clearTimeout only miss.
clearTimeout(-1); clearTimeout("1e400"); clearTimeout({}); clearInterval(NaN);
const t = setTimeout(() => {}, 10);
clearTimeout(t); clearTimeout(t);
return [typeof __cm_bridge === "undefined" ? "ok" : "bridge reachable"];
