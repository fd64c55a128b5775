// status: completed
// value: ["SwarmAgentError", true, 32]
// swarm: yes
// Promise.all over more children than the cell may start: the first 32
// run (four at a time), the 33rd rejects and so does the whole.
let started = 0;
const all = Array.from({ length: 100 }, (_, i) => agents.run("p" + i).then((v) => { started++; return v; }));
try {
  await Promise.all(all);
} catch (e) {
  await Promise.allSettled(all);
  return [e.name, e.message.startsWith("agents.run: this cell has started 32 sub-agents"), started];
}
