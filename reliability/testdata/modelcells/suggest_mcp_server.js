// status: failed
// code: internal_error
// error: TypeError:
// error-contains: filesystem
const todo = await MCP.file_system.read_text_file({ path: "notes/todo.md" });
return todo.content[0].text;
