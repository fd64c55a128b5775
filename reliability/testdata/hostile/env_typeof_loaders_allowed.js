// status: completed
// value: ["undefined","undefined","undefined","undefined",false]
// Reading a loader's type is not module access, and there is none to find.
return [typeof require, typeof module, typeof process, typeof globalThis.require,
  typeof process !== "undefined" && typeof process.getBuiltinModule === "function"];
