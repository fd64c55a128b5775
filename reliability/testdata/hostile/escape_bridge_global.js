// status: completed
// value: ["undefined", false]
return [typeof __cm_bridge, "__cm_bridge" in globalThis];
