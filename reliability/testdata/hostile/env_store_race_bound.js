// status: completed
// value: [4,12,true]
// Sixteen concurrent stores of 250 KiB race for the session's 1 MiB: four
// fit, twelve are refused as full, and overwriting a key over and over keeps
// one value's worth, so the freed keys can be used again.
const big = "x".repeat(250 * 1024);
const settled = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => store("k" + i, big)));
const ok = settled.filter((s) => s.status === "fulfilled").length;
const full = settled.filter((s) => s.status === "rejected" && s.reason.message.includes("session state full")).length;
const held = [];
for (let i = 0; i < 16; i++) if ((await load("k" + i)) !== undefined) held.push("k" + i);
for (let i = 0; i < 6; i++) await store(held[0], big.slice(i));
for (const k of held.slice(1)) await store(k, undefined);
await Promise.all([store("a", big), store("b", big), store("c", big)]);
return [ok, full, (await load("c")).length === big.length];
