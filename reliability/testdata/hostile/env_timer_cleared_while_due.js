// mcp: yes
// status: completed
// value: [true,0,50]
// Timers due together clear each other from their callbacks: a timer cleared
// after the host fired it, but before its callback ran, never runs it; and a
// callback that re-arms itself keeps working.
let fired = 0, wrong = 0, rearmed = 0;
const ids = [], cleared = new Set();
for (let i = 0; i < 200; i++) ids.push(setTimeout(() => {
  fired++;
  if (cleared.has(i)) wrong++;
  for (const j of [i + 1, i + 2]) if (j < ids.length && !cleared.has(j)) { cleared.add(j); clearTimeout(ids[j]); }
}, 20));
await new Promise((done) => {
  const again = () => { if (++rearmed < 50) setTimeout(again, 0); else done(); };
  setTimeout(again, 0);
});
await new Promise((r) => setTimeout(r, 60));
return [fired + cleared.size >= 200, wrong, rearmed];
