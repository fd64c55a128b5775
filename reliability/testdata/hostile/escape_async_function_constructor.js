// status: completed
// value: "undefined"
const AF = (async () => {}).constructor;
return await AF("return typeof __cm_bridge")();
