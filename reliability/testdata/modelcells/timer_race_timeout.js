// status: completed
// value: {"ok":false,"error":"slow_echo took longer than 300 ms"}
function withTimeout(promise, ms, label) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${label} took longer than ${ms} ms`)), ms)),
  ]);
}

try {
  const res = await withTimeout(tools.slow_echo({ ms: 3000, value: "late" }), 300, "slow_echo");
  return { ok: true, res };
} catch (e) {
  return { ok: false, error: e.message };
}
