// status: completed
// value: 1600
let sum = 0;
for (let b = 0; b < 100; b++) {
  const vs = await Promise.all(Array.from({ length: 16 }, () => tools.callValue("count", {})));
  for (const v of vs) sum += v;
}
return sum;
