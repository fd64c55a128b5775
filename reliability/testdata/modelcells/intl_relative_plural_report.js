// status: completed
// value: ["build #41: 3 days ago, 1 failure","build #42: yesterday, 2 failures","build #43: 5 hours ago, 0 failures","1st, 2nd, 3rd, and 4th place"]
// A build report: relative times, plural words and ordinals.
const now = Date.UTC(2026, 0, 5, 12);
const builds = [{ id: 41, at: now - 3 * 86400e3, failed: 1 }, { id: 42, at: now - 86400e3, failed: 2 }, { id: 43, at: now - 5 * 3600e3, failed: 0 }];
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const pr = new Intl.PluralRules("en-US");
const ago = (ms) => { const h = Math.round((ms - now) / 3600e3); return Math.abs(h) < 24 ? rtf.format(h, "hour") : rtf.format(Math.round(h / 24), "day"); };
const lines = builds.map((b) => `build #${b.id}: ${ago(b.at)}, ${b.failed} ${pr.select(b.failed) === "one" ? "failure" : "failures"}`);
const ord = new Intl.PluralRules("en-US", { type: "ordinal" });
const suffix = { one: "st", two: "nd", few: "rd", other: "th" };
lines.push(new Intl.ListFormat("en", { style: "long", type: "conjunction" }).format([1, 2, 3, 4].map((n) => n + suffix[ord.select(n)])) + " place");
return lines;
