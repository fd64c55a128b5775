// The "client application" of the MCP conformance suite's client scenarios
// (TestConformanceClient runs the suite with it as --command).
//
// The suite starts a test server per scenario and runs this script with the
// server's URL as the last argument, MCP_CONFORMANCE_SCENARIO naming the
// scenario and MCP_CONFORMANCE_CONTEXT holding its JSON context (client
// credentials for the pre-registration and client-credentials scenarios).
// The script puts codemode in front of that server as a drop-in proxy: it
// writes a config whose only server, s, is the URL, starts
// `$CODEMODE_BIN serve --config FILE` over stdio with the TypeScript SDK's
// client (from $CODEMODE_PEERS, the peers' node_modules), waits until s's
// tools are in the catalog and calls them from an exec cell. It exits 0 when
// the cell completed as the scenario needs, non-zero with a message on
// stderr otherwise. The cells' results and codemode's log go to stderr.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const peers = process.env.CODEMODE_PEERS;
const bin = process.env.CODEMODE_BIN;
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const tag = `conformance-client[${scenario}]`;
if (!peers || !bin || !/^https?:\/\//.test(url ?? "")) {
  console.error(`${tag}: usage: CODEMODE_PEERS=DIR CODEMODE_BIN=FILE node conformance-client.mjs URL`);
  process.exit(2);
}
const sdk = (p) => import(pathToFileURL(join(peers, "@modelcontextprotocol", "sdk", "dist", "esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { ElicitRequestSchema, CreateMessageRequestSchema, ToolListChangedNotificationSchema } = await sdk("types.js");

// How long the driver waits for s to connect (OAuth included), and for one
// cell to finish across exec and wait.
const READY_MS = 20000;
const CELL_MS = 25000;

let context = {};
try {
  context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
} catch (err) {
  fail(`MCP_CONFORMANCE_CONTEXT is not JSON: ${err.message}`);
}

// The codemode config: s is the scenario's server. OAuth is followed
// non-interactively (the test authorization servers grant without asking);
// a context with client credentials is a pre-registered client, and the
// client-credentials scenarios use that grant. auth/basic-cimd expects the
// client id metadata document URL that its authorization server knows; the
// other scenarios leave it out, so they take codemode's default path
// (dynamic client registration) unless they pre-register a client.
const CIMD_URL = "https://conformance-test.local/client-metadata.json";
const oauth = { authorize: "follow" };
if (context.client_id) oauth.clientId = context.client_id;
if (context.client_secret) oauth.clientSecret = context.client_secret;
if (scenario.startsWith("auth/client-credentials")) oauth.grant = "client_credentials";
if (scenario === "auth/basic-cimd") oauth.clientMetadataUrl = CIMD_URL;
const dir = mkdtempSync(join(tmpdir(), "codemode-conformance-"));
const config = join(dir, "codemode.json");
writeFileSync(config, JSON.stringify({ tools: { codeMode: true }, mcpServers: { s: { url, oauth } } }, null, 2));

// What each scenario needs done through s; an absent entry calls each tool
// of s once with {} (the auth scenarios' servers have one tool).
const cells = {
  initialize: null, // connecting is the scenario; its server has no tools
  tools_call: `
    const r = await MCP.s.add_numbers({ a: 2, b: 3 });
    if (r.isError || !JSON.stringify(r.content).includes("5")) throw new Error("add_numbers: " + JSON.stringify(r));
    return r;`,
  "elicitation-sep1034-client-defaults": `
    const r = await MCP.s.test_client_elicitation_defaults({});
    if (r.isError) throw new Error("test_client_elicitation_defaults: " + JSON.stringify(r));
    return r;`,
  "sse-retry": `
    const r = await MCP.s.test_reconnection({});
    if (r.isError) throw new Error("test_reconnection: " + JSON.stringify(r));
    return r;`,
};
const everyTool = `
  const { tools } = await MCP.s.$api();
  if (!tools.length) throw new Error("server s has no tools");
  const out = {};
  for (const t of tools) {
    const r = await MCP.s[t.name]({});
    if (r.isError) throw new Error(t.name + ": " + JSON.stringify(r));
    out[t.name] = r;
  }
  return out;`;

let log = "";
let client = null;
let connected = null; // resolves when codemode logs that s connected
const onConnected = new Promise((resolve) => (connected = resolve));

async function main() {
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, "config"), NO_COLOR: "1" };
  const transport = new StdioClientTransport({ command: bin, args: ["serve", "--config", config], env, stderr: "pipe" });
  transport.stderr.on("data", (chunk) => {
    const text = chunk.toString();
    log += text;
    process.stderr.write(text.replace(/^(?=.)/gm, "  codemode: "));
    // plugins/mcp logs `msg="MCP server connected" server=s tools=N`.
    if (/msg="MCP server connected"[^\n]*\bserver=s\b/.test(log)) connected();
  });
  client = new Client(
    { name: "codemode-conformance-driver", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  // Accept with no content: the downstream's defaults are codemode's to
  // apply (elicitation-sep1034-client-defaults).
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    console.error(`${tag}: elicitation/create: ${req.params.message}`);
    return { action: "accept", content: {} };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "sampled by the conformance driver" },
    model: "conformance-driver",
    stopReason: "endTurn",
  }));
  let changed = () => {};
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed());
  await client.connect(transport);

  const deadline = Date.now() + READY_MS;
  const remaining = () => Math.max(0, deadline - Date.now());
  if (scenario === "initialize") {
    if (!(await race(onConnected, remaining()))) fail(`server s did not connect within ${READY_MS} ms`);
    console.error(`${tag}: server s connected`);
    return;
  }
  // Wait until exec's description lists MCP.s: s connected and its tools
  // are catalogued (serve announces them with tools/list_changed).
  for (;;) {
    const next = new Promise((resolve) => (changed = resolve));
    const { tools } = await client.listTools();
    const exec = tools.find((t) => t.name === "exec");
    if (exec && exec.description.includes("`MCP.s`")) break;
    if (!(await race(next, Math.min(remaining(), 500))) && remaining() === 0) {
      fail(`server s's tools never reached the catalog within ${READY_MS} ms`);
    }
  }
  const code = scenario in cells ? cells[scenario] : everyTool;
  const result = await runCell(code);
  console.error(`${tag}: exec result: ${JSON.stringify(result)}`);
  if (result.status !== "completed") fail(`the cell ${result.status}: ${JSON.stringify(result.error ?? result)}`);
}

// runCell runs code with exec and, while it is waiting, wait, until it
// completes or fails or CELL_MS pass.
async function runCell(code) {
  const deadline = Date.now() + CELL_MS;
  let res = await client.callTool({ name: "exec", arguments: { code } }, undefined, { timeout: CELL_MS });
  for (;;) {
    const out = res.structuredContent;
    if (!out) fail(`exec/wait returned no structured result: ${JSON.stringify(res)}`);
    if (out.status !== "waiting") return out;
    if (Date.now() > deadline) fail(`the cell still waits after ${CELL_MS} ms: ${JSON.stringify(out)}`);
    res = await client.callTool({ name: "wait", arguments: { runId: out.runId } }, undefined, { timeout: CELL_MS });
  }
}

// race resolves true when p settles within ms, false otherwise.
function race(p, ms) {
  let timer;
  return Promise.race([
    p.then(() => true),
    new Promise((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}

class Failure extends Error {}

function fail(message) {
  throw new Failure(message);
}

let status = 0;
try {
  await main();
} catch (err) {
  status = 1;
  console.error(`${tag}: FAILED: ${err instanceof Failure ? err.message : err.stack ?? err}`);
} finally {
  try {
    await client?.close();
  } catch {}
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
