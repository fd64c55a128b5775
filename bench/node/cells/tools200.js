// The template of the template_start metric: 200 tool objects, each with a
// name, a description, an input schema and a call function. Global code: it
// runs once, before the snapshot (Node) or into the template image (Go).
globalThis.tools = {};
for (let i = 0; i < 200; i++) {
  const name = "tool_" + i;
  tools[name] = {
    name,
    description: "Tool number " + i + ": lists the records of kind " + (i % 13) + " with ids and timestamps.",
    inputSchema: { type: "object", properties: { id: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 100 } }, required: ["id"] },
    call: (input) => hostRequest(name, JSON.stringify(input)),
  };
}
