// mcp: yes
// status: completed
// value: [0,true]
// console formats without calling guest code: getters, toString, valueOf,
// Symbol.toPrimitive, toJSON, inspect hooks, Symbol.toStringTag getters,
// constructor and name getters, array index getters, Map and Set overrides.
let calls = 0;
const hit = () => { calls++; return "x"; };
class K { get g() { return hit(); } }
const o = {
  get a() { return hit(); }, set b(v) { hit(); },
  toString: hit, valueOf: hit, toJSON: hit, [Symbol.toPrimitive]: hit,
  [Symbol.for("nodejs.util.inspect.custom")]: hit, inspect: hit,
  get [Symbol.toStringTag]() { return hit(); },
  nested: { get deep() { return hit(); } }, k: new K(),
};
Object.defineProperty(o, "constructor", { get: hit });
const arr = [1, 2, 3]; Object.defineProperty(arr, 1, { get: hit });
const fn = function () {}; Object.defineProperty(fn, "name", { get: hit });
const m = new Map([[1, 2]]); m.entries = hit; m[Symbol.iterator] = hit; Object.defineProperty(m, "size", { get: hit });
const err = new Error("e"); Object.defineProperty(err, "message", { get: hit }); Object.defineProperty(err, "stack", { get: hit });
const date = new Date(0); date.toISOString = hit;
const saved = Map.prototype.entries;
console.log(o, arr, fn, m, err, date, new Set([1]), [o, [o, [o]]]);
console.log("%s %d %i %f %o %O %c", o, o, o, o, o, o, o);
console.dir(o, { get depth() { return hit(); } });
console.table(o); console.count(o); console.time(o); console.timeEnd(o); console.assert(false, o); console.group(o); console.groupEnd();
return [calls, Map.prototype.entries === saved];
