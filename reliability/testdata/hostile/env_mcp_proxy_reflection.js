// mcp: yes
// status: completed
// value: [true,true,true,true,true,true,true,true]
// Reflection on MCP, its servers and a missing name's function reaches
// only frozen objects and closures: no write sticks, no prototype changes,
// nothing names the host's functions, and the missing-name function only
// throws.
const probe = MCP.nope;
const frozen = [MCP, MCP.docs, tools, API, namespaces].every((o) => Object.isFrozen(o));
let wrote = false;
for (const o of [MCP, MCP.docs, tools]) {
  try { Object.defineProperty(o, "evil", { value: 1 }); wrote = true; } catch (e) {}
  try { Object.setPrototypeOf(o, { evil: 1 }); if (o.evil === 1) wrote = true; } catch (e) {}
  try { o.docs = 1; o.searchDocs = 1; } catch (e) {}
}
const sources = [];
const seen = new Set();
const walk = (o, depth) => {
  if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o) || depth > 4) return;
  seen.add(o);
  if (typeof o === "function") sources.push(Function.prototype.toString.call(o));
  for (const k of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    if (d && "value" in d) walk(d.value, depth + 1);
  }
};
for (const root of [MCP, tools, API, namespaces, probe, globalThis.Issues]) walk(root, 0);
let threw = 0;
for (const f of [() => probe(), () => probe.bind(null)(), () => probe.call(null), () => Reflect.apply(probe, null, []), () => new probe(), () => MCP.nope.deeper.still()]) {
  try { f(); } catch (e) { if (e instanceof TypeError) threw++; }
}
return [
  frozen,
  !wrote && MCP.docs !== 1 && typeof MCP.evil === "function" && !("evil" in MCP),
  Object.getPrototypeOf(MCP) === null && Object.getPrototypeOf(probe) === Function.prototype,
  Reflect.ownKeys(MCP).join() === "$api,$search,docs" && Object.keys(MCP).join() === "docs",
  !sources.some((s) => /__cm_|hostRequest|hostEmit|settle/.test(s)),
  threw === 6,
  typeof probe.then === "undefined" && typeof probe.toJSON === "undefined" && JSON.stringify({ probe }) === "{}",
  typeof globalThis.__cm_bridge === "undefined" && typeof globalThis.__cm_host_request === "undefined",
];
