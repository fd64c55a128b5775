// status: completed
// value: {"value":{"report":"weekly","rows":3},"sleptMs":100}
return await tools.callValue("openclaw:demo:slow_echo", { ms: 100, value: { report: "weekly", rows: 3 } });
