// status: completed
// value: "undefined"
// mcp: yes
return typeof __cm_host_request;
