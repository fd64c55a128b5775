// status: completed
// value: [1968, "SwarmAgentError"]
// swarm: yes
// Thousands of unawaited agents.run calls: maxAgentsPerCell (32) start,
// the rest reject at once and hold nothing.
let refused = 0, name = "";
for (let i = 0; i < 2000; i++) agents.run("flood " + i).catch((e) => { refused++; name = e.name; });
await new Promise((r) => setTimeout(r, 0));
return [refused, name];
