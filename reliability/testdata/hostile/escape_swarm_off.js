// status: completed
// value: ["undefined", "undefined", "undefined", false, false, "ReferenceError", "undefined", "undefined"]
// Without tools.swarm there are no agents, phase or log, under any name:
// not as globals, not through the Function constructor, not left in the
// removed bridge.
const viaFunction = (() => { try { return new Function("return agents")(); } catch (e) { return e.name; } })();
return [typeof agents, typeof phase, typeof log, "agents" in globalThis,
  Reflect.ownKeys(globalThis).some((k) => k === "agents" || k === "phase" || k === "log"),
  viaFunction, typeof globalThis.__cm_bridge, typeof __cm_host_request];
