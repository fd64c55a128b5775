// server: short
// status: waiting
// wait-status: completed
// wait-value: "report ready"
const r = await tools.slow_echo({ ms: 4000, value: "report ready" });
return r.value;
