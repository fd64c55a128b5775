// status: completed
// value: "q=build+bot&limit=5&channel=slack&since=2026-03-01T00%3A00%3A00Z"
const params = new URLSearchParams({ q: "build bot", limit: "5" });
params.append("channel", "slack");
params.append("since", "2026-03-01T00:00:00Z");
return params.toString();
