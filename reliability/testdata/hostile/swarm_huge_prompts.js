// status: completed
// value: ["TypeError", "SwarmAgentError", "TypeError", "TypeError"]
// swarm: yes
// Prompts past 64 KiB, in characters and in UTF-8 bytes, and labels and
// models past 256 characters: refused before any child runs.
const names = [];
for (const f of [
  () => agents.run("x".repeat(1 << 20)),
  () => agents.run("é".repeat(40000)),
  () => agents.run("p", { label: "l".repeat(100000) }),
  () => agents.run("p", { model: "m".repeat(257) }),
]) {
  names.push(await f().then(() => "resolved", (e) => e.name));
}
return names;
