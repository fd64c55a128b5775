// status: completed
// value: {"open":["#815","#816","#820"],"done":["#809","#812"],"version":"v1.4.0"}
const md = (await MCP.filesystem.readTextFile({ path: "notes/todo.md" })).content[0].text;
const open = [], done = [];
for (const [, mark, ref] of md.matchAll(/^- \[( |x)\] .*?\((#\d+)\)$/gm)) {
  (mark === "x" ? done : open).push(ref);
}
return { open, done: done.sort(), version: md.match(/\bv\d+\.\d+\.\d+\b/)?.[0] };
