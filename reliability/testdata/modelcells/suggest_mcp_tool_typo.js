// status: failed
// code: internal_error
// error: TypeError:
// error-contains: readGraph
const graph = await MCP.memory.readGraf();
return graph.structuredContent.entities.length;
