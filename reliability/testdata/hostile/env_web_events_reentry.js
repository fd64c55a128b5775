// status: completed
// value: ["InvalidStateError",["first","second","added"]]
// Dispatching an event from its own listener is refused, and a listener
// that adds listeners while it runs adds them for the next dispatch only:
// no dispatch loops without end.
const t = new EventTarget();
const log = [];
let nested = "";
t.addEventListener("x", (e) => {
  log.push(e.detail);
  try { t.dispatchEvent(e) } catch (err) { nested = err.name }
  if (log.length === 1) t.addEventListener("x", () => log.push("added"));
});
t.dispatchEvent(new CustomEvent("x", { detail: "first" }));
t.dispatchEvent(new CustomEvent("x", { detail: "second" }));
return [nested, log];
