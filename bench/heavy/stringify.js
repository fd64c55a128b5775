// A cell that runs into its heap limit by building output: JSON.stringify of
// ten million strings.
const a = [];
for (let i = 0; i < 1e7; i++) a.push("s" + (i % 1000));
return JSON.stringify(a).length;
