// status: completed
// value: 1
let runs = 0;
async function main() { runs++; return runs; }
await main();
