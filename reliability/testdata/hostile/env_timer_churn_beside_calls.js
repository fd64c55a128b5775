// status: failed
// code: internal_error
// error: Error:
// Fired timers cleared before delivery count until delivered, so the run's
// results never overflow and no worker is left blocked (the corpus checks
// goroutines).
for (let i = 0; i < 16; i++) tools.sleep({ ms: 600 });
const t0 = Date.now();
while (Date.now() - t0 < 900) {
  const id = setTimeout(() => {}, 0);
  const s = Date.now(); while (Date.now() - s < 1) {}
  clearTimeout(id);
}
throw new Error("churned");
