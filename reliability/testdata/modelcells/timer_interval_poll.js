// status: completed
// value: {"ticks":3,"unpaid":8}
let ticks = 0;
let unpaid;
await new Promise((resolve) => {
  const id = setInterval(async () => {
    ticks++;
    if (ticks === 3) {
      clearInterval(id);
      unpaid = (await Shipping.list()).filter((s) => !s.paid).length;
      resolve();
    }
  }, 100);
});
return { ticks, unpaid };
