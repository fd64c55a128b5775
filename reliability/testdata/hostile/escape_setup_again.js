// status: completed
// value: "undefined"
return typeof __cm_setup;
