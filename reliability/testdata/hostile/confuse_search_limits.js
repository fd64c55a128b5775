// status: completed
// value: ["limit must be a positive integer.", "limit must be a positive integer.", 8]
const out = [];
for (const limit of [-1, "x"]) {
  try { await tools.search("", { limit }); out.push("ok"); } catch (e) { out.push(e.message); }
}
out.push((await tools.search("", { limit: 1e9 })).length);
return out;
