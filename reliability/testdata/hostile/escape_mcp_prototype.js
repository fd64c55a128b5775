// status: completed
// value: [null, "undefined", "undefined", "function"]
return [Object.getPrototypeOf(MCP.docs), typeof MCP.docs.constructor, typeof MCP.docs.__proto__, typeof MCP.docs.searchDocs];
