// status: completed
// value: "The sum of 19 and 23 is 42."
const res = await MCP.everything["get-sum"]({ a: 19, b: 23 });
res.content[0].text
