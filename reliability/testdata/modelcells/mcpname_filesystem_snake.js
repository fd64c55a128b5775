// status: completed
// value: ["[DIR] data","[DIR] logs","[DIR] notes","[FILE] config.json"]
const listing = await MCP.filesystem.list_directory({ path: "." });
return listing.content[0].text.split("\n").sort();
