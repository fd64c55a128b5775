// status: completed
// value: {"refused":8,"unknown":1,"ran":0}
// Every way to call a tool that needs an approval the run never gets: by
// name, by id, by a computed name, through MCP by identifier and by exact
// name, in parallel and after a catch (an MCP tool's catalog id is not a
// way in at all: MCP tools are reached only through MCP.<server>). The corpus's approver declines, so
// each is a catchable refusal, and the world counts any that ran.
const attempts = [
  () => tools.call("guarded", {}),
  () => tools.callValue("guarded", {}),
  () => tools.callValue("openclaw:tracker:guarded", {}),
  () => tools.callValue(["guar", "ded"].join(""), {}),
  () => MCP.docs.dropTable({}),
  () => MCP.docs["drop_table"]({}),
  () => tools.callValue("mcp:docs:drop_table", {}),
];
let refused = 0, unknown = 0, ran = 0;
for (const f of attempts) {
  try { await f(); ran++; } catch (e) { if (/was blocked before execution: the corpus's person declines/.test(e.message)) refused++;
    else if (/^Unknown tool id: mcp:docs:drop_table/.test(e.message)) unknown++; else throw e; }
}
const parallel = await Promise.allSettled([tools.callValue("guarded", {}), MCP.docs.dropTable({})]);
for (const p of parallel) {
  if (p.status === "rejected" && /person declines/.test(p.reason.message)) refused++; else ran++;
}
return { refused, unknown, ran };
