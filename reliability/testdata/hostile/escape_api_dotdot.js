// status: completed
// value: ["invalid API file path", "invalid API file path", "invalid API file path", "invalid API file path", "Unknown API file: etc/passwd", "Unknown API file: mcp\\..\\..\\secret", "Unknown API file: %2e%2e/x"]
// mcp: yes
const out = [];
for (const p of ["..", "mcp/../../etc/passwd", "mcp/./docs.d.ts", "mcp//docs.d.ts", "/etc/passwd", "mcp\\..\\..\\secret", "%2e%2e/x"]) {
  try { await API.read(p); out.push("read"); } catch (e) { out.push(e.message); }
}
return out;
