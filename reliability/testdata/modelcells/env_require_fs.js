// status: failed
// code: invalid_input
// error: code mode module access is disabled.
const fs = require("fs");
const todo = fs.readFileSync("notes/todo.md", "utf8");
return todo.split("\n").length;
