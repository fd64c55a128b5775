// mcp: yes
// status: completed
// value: ["undefined", "undefined", true]
const F = tools.search.constructor;
return [F("return typeof __cm_host_request")(), F("return typeof __cm_bridge")(), F("return this")() === globalThis];
