// status: completed
// value: ["may not use", "may not use", "may not use", "nests deeper than 32 levels", "characters of JSON; at most 16384", "must be a JSON Schema object", "must be a JSON Schema object", "must be a JSON Schema object", "must be a JSON Schema object", "must be JSON", "must be JSON", "must be a JSON Schema object", "resolved"]
// swarm: yes
// Schemas that would hang or blow up a validator: self and chained
// references, deep nesting, huge ones, and things that are no schema
// object. A Proxy schema is read as JSON like any object.
let deep = {};
for (let i = 0; i < 1000; i++) deep = { items: deep };
const chain = { $defs: {} };
for (let i = 0; i < 40; i++) chain.$defs["d" + i] = { anyOf: [{ $ref: "#/$defs/d" + (i + 1) }, { $ref: "#/$defs/d" + (i + 1) }] };
const cyclic = {};
cyclic.self = cyclic;
const schemas = [
  { $ref: "#" },
  chain,
  { properties: { a: { $dynamicRef: "#x" } } },
  deep,
  { description: "x".repeat(100000) },
  "object",
  [],
  true,
  () => ({}),
  cyclic,
  { n: 10n },
  { toJSON: () => "a string" },
  new Proxy({}, { get: (t, k) => (k === "toJSON" ? undefined : t[k]) }),
];
const out = [];
for (const schema of schemas) {
  out.push(await agents.run("json:{}", { schema }).then(() => "resolved", (e) => {
    for (const m of ["may not use", "nests deeper than 32 levels", "characters of JSON; at most 16384", "must be a JSON Schema object", "must be JSON"]) {
      if (e.message.includes(m)) return m;
    }
    return e.name + ": " + e.message;
  }));
}
return out;
