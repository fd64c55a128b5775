// status: completed
// value: {"months":["2026-01","2026-02","2026-03"],"best":{"region":"north","total":2150},"total":5110}
const csv = (await MCP.filesystem.readTextFile({ path: "data/sales.csv" })).content[0].text;
const [head, ...rows] = csv.trim().split("\n");
const cols = head.split(",");
const records = rows.map(r => Object.fromEntries(r.split(",").map((v, i) => [cols[i], cols[i] === "amount" ? +v : v])));
const totals = records.reduce((acc, r) => ({ ...acc, [r.region]: (acc[r.region] || 0) + r.amount }), {});
const [region, total] = Object.entries(totals).sort((a, b) => b[1] - a[1])[0];
return {
  months: [...new Set(records.map(r => r.month))].sort(),
  best: { region, total },
  total: records.reduce((s, r) => s + r.amount, 0),
};
