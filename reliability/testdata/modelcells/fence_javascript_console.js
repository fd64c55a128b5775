// status: completed
// value: null
// output-contains: 3 open items
```javascript
const { content } = await MCP.filesystem.read_text_file({ path: "notes/todo.md" });
const open = content[0].text.split("\n").filter(line => line.startsWith("- [ ]"));
console.log(`${open.length} open items`);
```
