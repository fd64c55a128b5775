// status: completed
// value: ["Unknown API file: ../../etc/passwd", true]
String.prototype.split = function () { return ["ok"]; };
let msg;
try { await API.read("../../etc/passwd"); } catch (e) { msg = e.message; }
const d = await API.read("mcp/docs.d.ts").catch(() => "");
return [msg, d.includes("searchDocs")];
