// status: completed
// value: [["RangeError", "from the getter"], ["Error", "ownKeys"], "TypeError", "SwarmAgentError", 1, "ok 1"]
// swarm: yes
// Getter-laden and proxied options: each key is read once, a throwing
// getter or trap rejects with its own error, an inherited schema is still
// checked by the host, and a getter that changes its answer is asked once.
const results = [];
const throwing = { get label() { throw new RangeError("from the getter"); } };
results.push(await agents.run("p", throwing).catch((e) => [e.name, e.message]));
const trap = new Proxy({}, { ownKeys() { throw new Error("ownKeys"); } });
results.push(await agents.run("p", trap).catch((e) => [e.name, e.message]));
let n = 0;
const shifty = { get label() { n++; return n === 1 ? 3 : "fine"; } };
results.push(await agents.run("p", shifty).catch((e) => e.name));
const inherited = Object.create({ schema: { $ref: "#" } });
results.push(await agents.run("p", inherited).catch((e) => e.name));
results.push(n);
let reads = 0;
results.push(await agents.run("q", { get model() { reads++; return "m"; } }));
return results;
