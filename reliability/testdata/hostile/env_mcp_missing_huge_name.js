// status: completed
// value: [true,true,true]
// A missing name of half a million characters: the message quotes 80 of them
// and the closest-name search looks at 32, so it stays short and fast.
const name = "searchDocx".repeat(50000);
const msgs = [];
for (const f of [() => MCP.docs[name](), () => MCP[name].tool(), () => tools[name]()]) {
  try { f(); } catch (e) { msgs.push(e.message); }
}
return msgs.map((m) => m.length < 600);
