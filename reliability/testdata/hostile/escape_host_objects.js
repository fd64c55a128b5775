// status: completed
// value: {"process":"undefined","require":"undefined","std":"undefined","os":"undefined","fetch":"function","XMLHttpRequest":"function","WebAssembly":"undefined","Deno":"undefined","Bun":"undefined","setTimeout":"function","scriptArgs":"undefined","module":"undefined","exports":"undefined"}
// fetch and XMLHttpRequest exist only to refuse (no network); setTimeout is the
// host's timer. Nothing here reaches the host's own objects.
await fetch("x").then(() => { throw new Error("fetch reached a network") }, () => {});
const names = ["process", "require", "std", "os", "fetch", "XMLHttpRequest", "WebAssembly", "Deno", "Bun", "setTimeout", "scriptArgs", "module", "exports"];
const out = {};
for (const n of names) out[n] = typeof globalThis[n];
return out;
