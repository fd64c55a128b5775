// status: completed
// value: {"size":19,"type":"application/json","head":"{\"a\":1"}
const blob = new Blob([JSON.stringify({ a: 1, b: [1, 2, 3] })], { type: "application/json" });
const head = await blob.slice(0, 6).text();
return { size: blob.size, type: blob.type, head };
