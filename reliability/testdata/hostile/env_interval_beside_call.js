// status: completed
// value: "done"
// mcp: yes
// The return ends the interval even while a call it did not await runs on.
setInterval(() => { tools.sleep({ ms: 50 }); text("t"); }, 10);
tools.sleep({ ms: 50 });
return "done";
