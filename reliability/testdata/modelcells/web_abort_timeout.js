// status: completed
// value: {"aborted":true,"reason":"TimeoutError","raced":"timed out"}
// A deadline on slow work, the way models race a promise against a signal.
const signal = AbortSignal.timeout(20);
const slow = new Promise((resolve) => setTimeout(() => resolve("done"), 2000));
const raced = await Promise.race([
  slow,
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
]).catch((e) => (e.name === "TimeoutError" ? "timed out" : "other: " + e.name));
return { aborted: signal.aborted, reason: signal.reason.name, raced };
