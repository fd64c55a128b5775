// server: short
// status: waiting
// wait-status: completed
// wait-value-contains: Long running operation completed
const res = await MCP.everything.triggerLongRunningOperation({ duration: 4, steps: 2 });
return res.content[0].text;
