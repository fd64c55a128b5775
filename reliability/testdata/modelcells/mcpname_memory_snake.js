// status: completed
// value: {"created":["Ada Lovelace","Analytical Engine"],"observations":["wrote the first published program"],"relations":[{"from":"Ada Lovelace","to":"Analytical Engine","relationType":"programmed"}]}
await MCP.memory.create_entities({
  entities: [
    { name: "Ada Lovelace", entityType: "person", observations: ["wrote the first published program"] },
    { name: "Analytical Engine", entityType: "machine", observations: [] },
  ],
});
await MCP.memory.create_relations({
  relations: [{ from: "Ada Lovelace", to: "Analytical Engine", relationType: "programmed" }],
});
const graph = (await MCP.memory.read_graph()).structuredContent;
const mine = new Set(["Ada Lovelace", "Analytical Engine"]);
return {
  created: graph.entities.filter(e => mine.has(e.name)).map(e => e.name),
  observations: graph.entities.find(e => e.name === "Ada Lovelace")?.observations,
  relations: graph.relations.filter(r => mine.has(r.from)),
};
