// status: completed
// value: {"host":"billing.internal","path":"/v1/invoices","page":3,"sort":"desc","tags":["late","eu"],"next":"https://billing.internal/v1/invoices?page=4&sort=desc&tag=late&tag=eu"}
const cfg = JSON.parse((await MCP.filesystem.readTextFile({ path: "config.json" })).content[0].text);
const url = new URL("invoices?page=3&sort=desc&tag=late&tag=eu", cfg.endpoints.primary + "/");
const next = new URL(url);
next.searchParams.set("page", String(Number(url.searchParams.get("page")) + 1));
return {
  host: url.hostname,
  path: url.pathname,
  page: Number(url.searchParams.get("page")),
  sort: url.searchParams.get("sort"),
  tags: url.searchParams.getAll("tag"),
  next: next.href,
};
