// status: completed
// value: [false, false, false, false, false]
// The denied operation's id through every other door: the tools helpers, an
// MCP tool call whose id is forged into it, and near spellings of the method.
const out = [];
for (const f of [tools.call, tools.callValue]) {
  try { await f("mcp:docs:prompts/get", { name: "secret" }); out.push(true); } catch (e) { out.push(false); }
}
let forged = null;
Object.defineProperty(Object.prototype, "toJSON", { configurable: true, value: function () {
  if (forged && this && "input" in this && "id" in this) return { id: forged, input: { name: "secret" } };
  if (forged && this && "method" in this && "server" in this) return { server: this.server, method: forged, params: { name: "secret" } };
  return this;
} });
for (const [id, call] of [
  ["mcp:docs:prompts/get", () => MCP.docs.searchDocs({ q: "x" })],
  ["Prompts/Get", () => MCP.docs.prompts.list()],
  ["prompts/get ", () => MCP.docs.prompts.list()],
]) {
  forged = id;
  try { await call(); out.push(true); } catch (e) { out.push(false); }
  forged = null;
}
return out;
