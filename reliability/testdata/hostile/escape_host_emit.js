// status: completed
// value: "undefined"
return typeof __cm_host_emit;
