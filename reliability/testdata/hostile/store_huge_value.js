// status: failed
// code: internal_error
// error: Error: store "big": the value is
await store("big", { rows: Array.from({ length: 40000 }, (_, i) => ({ i, s: "row" })) });
