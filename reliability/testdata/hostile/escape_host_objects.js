// status: completed
// value: {"process":"undefined","require":"undefined","std":"undefined","os":"undefined","fetch":"undefined","XMLHttpRequest":"undefined","WebAssembly":"undefined","Deno":"undefined","Bun":"undefined","setTimeout":"undefined","scriptArgs":"undefined","module":"undefined","exports":"undefined"}
const names = ["process", "require", "std", "os", "fetch", "XMLHttpRequest", "WebAssembly", "Deno", "Bun", "setTimeout", "scriptArgs", "module", "exports"];
const out = {};
for (const n of names) out[n] = typeof globalThis[n];
return out;
