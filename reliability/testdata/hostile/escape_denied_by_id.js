// mcp: yes
// status: completed
// value: [false, false, false, false]
const out = [];
for (const id of ["admin_reset", "openclaw:tracker:admin_reset", "ADMIN_RESET", " openclaw:tracker:admin_reset "]) {
  try { await tools.callValue(id, {}); out.push(true); } catch (e) { out.push(false); }
}
return out;
