// status: waiting
// Pending intervals are pending work: at the deadline the run parks, it does not spin the host.
for (let i = 0; i < 200; i++) setInterval(() => {}, 0);
await new Promise(() => {});
