// status: completed
// value: {"map":{},"set":{},"typed":{"0":1,"1":2},"date":"1970-01-01T00:00:00.000Z","re":{}}
return { map: new Map([[1, 2]]), set: new Set([1]), typed: new Uint8Array([1, 2]), date: new Date(0), re: /x/, undef: undefined, fn() {}, sym: Symbol("s") };
