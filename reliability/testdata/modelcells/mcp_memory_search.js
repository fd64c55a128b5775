// status: completed
// value: {"names":["Grace Hopper"],"observations":["invented the first compiler","navy rear admiral"]}
await MCP.memory.createEntities({
  entities: [{ name: "Grace Hopper", entityType: "person", observations: ["invented the first compiler"] }],
});
await MCP.memory.addObservations({
  observations: [{ entityName: "Grace Hopper", contents: ["navy rear admiral"] }],
});
const found = (await MCP.memory.searchNodes({ query: "Hopper" })).structuredContent;
return {
  names: found.entities.map(e => e.name),
  observations: found.entities[0]?.observations ?? [],
};
