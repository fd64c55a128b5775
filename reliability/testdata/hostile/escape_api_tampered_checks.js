// status: completed
// value: ["invalid API file path", true]
// The host checks API paths: tampering with the guest's String methods
// changes nothing.
String.prototype.split = function () { return ["ok"]; };
let msg;
try { await API.read("../../etc/passwd"); } catch (e) { msg = e.message; }
const d = await API.read("mcp/docs.d.ts").catch(() => "");
return [msg, d.includes("searchDocs")];
