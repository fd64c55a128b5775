// status: completed
// value-contains: "found":false
// value-contains: missing.md
const res = await MCP.filesystem.readTextFile({ path: "notes/missing.md" });
if (res.isError) {
  return { found: false, why: res.content[0].text };
}
return { found: true, text: res.content[0].text };
