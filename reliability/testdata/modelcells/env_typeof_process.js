// status: completed
// value: {"runtime":"sandbox","cwd":null}
const isNode = typeof process !== "undefined" && !!process.versions?.node;
const cwd = typeof process === "object" ? process.cwd() : null;
return { runtime: isNode ? "node" : "sandbox", cwd };
