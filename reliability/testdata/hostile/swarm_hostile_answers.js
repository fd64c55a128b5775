// status: completed
// value: ["answered 307200 bytes; at most 262144", "it is not JSON", "it does not match the schema"]
// swarm: yes
// Answers the host must not pass on: one past 256 KiB, JSON nested past
// what the decoder takes, JSON that does not match.
const out = [];
for (const [prompt, options] of [["huge"], ["deep", { schema: { type: "array" } }], ['json:{"a": "x"}', { schema: { type: "object", properties: { a: { type: "integer" } } } }]]) {
  out.push(await agents.run(prompt, options).then(() => "resolved", (e) => {
    for (const m of ["answered 307200 bytes; at most 262144", "it is not JSON", "it does not match the schema"]) {
      if (e.message.includes(m)) return m;
    }
    return e.message;
  }));
}
return out;
