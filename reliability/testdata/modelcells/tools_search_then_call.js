// status: completed
// value: {"tool":"openclaw:demo:conversations_list","labels":["Finance"]}
const hits = await tools.search("list conversations");
const tool = hits[0];
const { conversations } = await tools.callValue(tool.id, { query: "finance" });
return { tool: tool.id, labels: conversations.map(c => c.label) };
