// status: completed
// value: [true,true,true,true]
// crypto's stream does not repeat within a cell, and randomUUID is a v4
// UUID; replacing Math.random or Uint8Array later changes nothing.
const a = crypto.getRandomValues(new Uint8Array(64)), b = crypto.getRandomValues(new Uint8Array(64));
const uuid = crypto.randomUUID();
Math.random = () => 0;
globalThis.Uint8Array = function () { throw new Error("replaced"); };
const c = crypto.randomUUID();
return [a.join() !== b.join(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid), c !== uuid, a.some((x) => x !== 0)];
