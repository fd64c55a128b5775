// Sub-agents from one cell (tools.swarm): three reviews in parallel, a
// decision as schema-checked JSON, and a child that fails, caught. Under
// `codemode exec` the demo agent answers ("<label>: <prompt>", or the least
// instance of the schema); under `codemode serve` the MCP client's model
// does, through sampling.
phase("review");
const unpaid = (await Shipping.list()).filter((s) => !s.paid);
const heaviest = unpaid.toSorted((a, b) => b.tons - a.tons).slice(0, 3);
const reviews = await Promise.all(heaviest.map((s) =>
  agents.run(`Check shipment ${s.id} (${s.tons} t) for payment risk.`, { label: s.id })));
log(`${reviews.length} reviews back`);

phase("decide");
const decision = await agents.run(`Reviews:\n${reviews.join("\n")}\nShould we chase the heaviest first?`, {
  label: "decider",
  schema: { type: "object", properties: { chase: { type: "boolean" }, reason: { type: "string" } }, required: ["chase", "reason"] },
});

let failure = null;
try {
  // No string is at least 5 and at most 2 characters long: the answer is
  // refused, asked for once more, and refused again.
  await agents.run("Name a code.", { label: "impossible", schema: { type: "string", minLength: 5, maxLength: 2 } });
} catch (e) {
  failure = e.name;
}
return { reviews, decision, failure };
