// server: short
// status: waiting
// output-contains: started
// wait-status: completed
// wait-value: 2
// wait-output-contains: tick 1
// wait-output-contains: tick 2
console.log("started");
let n = 0;
await new Promise((resolve) => {
  const id = setInterval(() => {
    n++;
    console.log(`tick ${n}`);
    if (n === 2) { clearInterval(id); resolve(); }
  }, 2500);
});
return n;
