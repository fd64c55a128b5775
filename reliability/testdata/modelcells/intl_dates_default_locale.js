// status: completed
// value: ["1/5/2026","1/5/2026, 3:04:05 PM","Monday, January 5, 2026","5.1.2026","05/01/2026","2026/1/5"]
// The date strings a model expects from toLocaleDateString, unpadded in en-US.
const d = new Date(Date.UTC(2026, 0, 5, 15, 4, 5));
return [
  d.toLocaleDateString("en-US"),
  d.toLocaleString("en-US"),
  d.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" }),
  d.toLocaleDateString("de-DE"),
  d.toLocaleDateString("en-GB"),
  d.toLocaleDateString("ja-JP"),
];
