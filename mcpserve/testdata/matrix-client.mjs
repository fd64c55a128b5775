// The protocol matrix's TypeScript client: it connects to codemode serve at
// one MCP revision with the TS SDK's own client, runs the matrix cells and
// prints what it saw as one JSON object. Argument: a JSON object with target
// ({command, env} or {url}), version and cells {add, park, slow, wipe}.
// MODULES names the pinned peers' node_modules (ES modules ignore NODE_PATH).
const sdk = `${process.env.MODULES}/@modelcontextprotocol/client/dist`;
const { Client, StreamableHTTPClientTransport } = await import(`${sdk}/index.mjs`);
const { StdioClientTransport } = await import(`${sdk}/stdio.mjs`);

const { target, version, cells } = JSON.parse(process.argv[2]);
// The client asks for version first and accepts the others the SDK knows,
// as a real client does; that is how one asking for a revision serve does
// not speak still connects (2026-07-28 falls back to initialize).
const known = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
const offered = [version, ...known.filter((v) => v !== version)];
const client = new Client({ name: "matrix", version: "1" }, {
  capabilities: { elicitation: { form: {} } },
  supportedProtocolVersions: offered,
});
client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: {} }));
const transport = target.url
  ? new StreamableHTTPClientTransport(new URL(target.url))
  : new StdioClientTransport({ command: target.command, env: { ...process.env, ...target.env } });
await client.connect(transport);

const exec = async (code, options) => (await client.callTool({ name: "exec", arguments: { code } }, options)).structuredContent;
const out = { version: client.getNegotiatedProtocolVersion() };
out.add = (await exec(cells.add)).value;
let r = await exec(cells.park);
for (let i = 0; i < 10 && r.status === "waiting"; i++) {
  r = (await client.callTool({ name: "wait", arguments: { runId: r.runId } })).structuredContent;
}
out.wait = r.status;
let progress = 0;
await exec(cells.slow, { onprogress: () => progress++ });
out.progress = progress;
out.wipe = String((await exec(cells.wipe)).value);
await client.close();
console.log(JSON.stringify(out));
