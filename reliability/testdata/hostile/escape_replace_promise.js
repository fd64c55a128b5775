// status: completed
// value: 1
globalThis.Promise = function () { throw new Error("no"); };
return await tools.callValue("count", {});
