// mcp: yes
// status: failed
// code: output_limit_exceeded
// Timer callbacks that throw are reported as output lines, which count
// against maxOutputBytes: a flood of them fails the cell, though it returned.
for (let i = 0; i < 200; i++) setTimeout(() => { throw new Error("e".repeat(1000)); }, 0);
await new Promise((r) => setTimeout(r, 50));
return "done";
