// mcp: yes
// status: completed
// value: 1
// output: [{"type":"json","value":"[object Object]"}]
json({ get x() { throw new Error("g"); } });
return 1;
