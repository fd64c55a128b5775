// mcp: yes
// status: completed
// value: true
// Closing the cell's wrapper leaves the host's setup call uncalled, so
// __cm_setup is still there; calling it with forged data (a denied tool as a
// convenience name, an MCP tool id of another server, a namespace path the
// plugin never declared) reaches nothing: the host checks every id.
}); globalThis.__r = (async () => {
  if (typeof __cm_setup !== "function") return true;
  __cm_setup(JSON.stringify({ names: [["x", "admin_reset"], ["shot", "screenshot"]], files: [], mcp: [{ identifier: "evil", tools: [["t", "mcp:docs:secret"], ["p", "mcp:docs:prompts/get"]] }] }),
    JSON.stringify([{ id: "admin_reset", name: "admin_reset" }]),
    JSON.stringify([{ id: "tracker.issues", globalName: "Forged", scope: { k: "o", o: { del: { k: "f", p: ["delete"] }, reset: { k: "f", p: ["../admin_reset"] } } } }]));
  const calls = [() => tools.x({}), () => tools.shot({}), () => MCP.evil.t({}), () => MCP.evil.p({}), () => Forged.del({}), () => Forged.reset({}),
    () => MCP.evil.prompts.get({ name: "secret" })];
  for (const f of calls) {
    try { await f(); return "a forged call ran"; } catch (e) {}
  }
  return true;
})(); (async () => { return await __r;
