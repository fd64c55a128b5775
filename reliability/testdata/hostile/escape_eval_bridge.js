// status: completed
// value: ["undefined", "undefined"]
return [eval("typeof __cm_bridge"), (0, eval)("typeof __cm_host_request")];
