// status: completed
// value: {"north":2150,"south":1950,"east":1010}
```ts
interface Sale { region: string; month: string; amount: number }

const csv: string = (await MCP.filesystem.readTextFile({ path: "data/sales.csv" })).content[0].text;
const [header, ...lines] = csv.trim().split("\n");
const sales: Sale[] = lines.map((line) => {
  const [region, month, amount] = line.split(",");
  return { region, month, amount: Number(amount) };
});
const byRegion: Record<string, number> = {};
for (const s of sales) byRegion[s.region] = (byRegion[s.region] ?? 0) + s.amount;
return byRegion;
```
