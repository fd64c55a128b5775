package conformance

// valueCases cover the JSON value rule a completed cell's value goes
// through (the bridge's encode): what JSON carries, what becomes null, what
// becomes a string, and values that fight back.
func valueCases() []Case {
	return []Case{
		// Numbers.
		ok("value/negative zero", `return -0`, `0`),
		ok("value/negative zero in array", `return [-0, 0 * -1, Object.is(-0, 0)]`, `[0,0,false]`),
		ok("value/NaN is null", `return NaN`, `null`),
		ok("value/Infinity is null", `return [NaN, Infinity, -Infinity]`, `[null,null,null]`),
		ok("value/large and small numbers", `return [1e21, 5e-324, 2 ** 53, 2 ** 64, 1 / 3, -1e-7]`, `[1e+21,5e-324,9007199254740992,18446744073709552000,0.3333333333333333,-1e-7]`),

		// Strings.
		ok("value/escapes", `return "quote\" backslash\\ nl\n tab\t cr\r bs\b ff\f nul\u0000 us\u001f"`, `"quote\" backslash\\ nl\n tab\t cr\r bs\b ff\f nul\u0000 us\u001f"`),
		ok("value/non-ASCII stays raw", `return "é ключ 😀 \u007f"`, "\"é ключ 😀 \u007f\""),
		ok("value/line separators stay raw", `return "a\u2028b\u2029c"`, "\"a\u2028b\u2029c\""),
		ok("value/lone high surrogate", `return "\ud800"`, `"\ud800"`),
		ok("value/lone low surrogate", `return "a\udc00b"`, `"a\udc00b"`),
		ok("value/split surrogate pair", `return "😀".split("")`, `["\ud83d","\ude00"]`),
		ok("value/surrogate pair from escapes", `return "\ud83d\ude00"`, `"😀"`),
		ok("value/unicode keys", `return { "ключ": "значение", "😀": 1 }`, `{"ключ":"значение","😀":1}`),
		ok("value/empty string and object", `return ["", {}, []]`, `["",{},[]]`),

		// Shapes JSON drops or cannot carry.
		ok("value/undefined members dropped", `return { a: undefined, b: () => 1, c: Symbol("s"), d: 1 }`, `{"d":1}`),
		ok("value/undefined elements null", `return [undefined, () => 1, Symbol("s")]`, `[null,null,null]`),
		ok("value/bigint top level is a string", `return 10n`, `"10"`),
		ok("value/bigint nested loses the object", `return { n: 1n }`, `"[object Object]"`),
		ok("value/bigint with toJSON", `BigInt.prototype.toJSON = function () { return this.toString() }; return { n: 12345678901234567890n }`, `{"n":"12345678901234567890"}`),
		ok("value/function source", `return function f(a) { return a }`, `"function f(a) { return a }"`),
		ok("value/arrow source", `return (a) => a + 1`, `"(a) => a + 1"`),
		ok("value/class source", `return class A { m() {} }`, `"class A { m() {} }"`),
		ok("value/native function", `return Math.max`, `"function max() {\n    [native code]\n}"`),
		ok("value/symbol", `return Symbol("s")`, `"Symbol(s)"`),
		ok("value/map and set are empty objects", `return [new Map([["a", 1]]), new Set([1])]`, `[{},{}]`),
		ok("value/map entries", `return Object.fromEntries(new Map([["a", 1]]))`, `{"a":1}`),
		ok("value/boxed primitives", `return [new String("s"), new Number(1), new Boolean(false), Object(1n)]`, `"s,1,false,1"`),
		ok("value/regexp is empty object", `return /x/g`, `{}`),
		ok("value/promise is empty object", `return { p: Promise.resolve(1) }`, `{"p":{}}`),
		ok("value/arguments object", `return (function () { return arguments })(1, "a")`, `{"0":1,"1":"a"}`),
		ok("value/null prototype object", `const o = Object.create(null); o.a = 1; return o`, `{"a":1}`),
		ok("value/non-enumerable dropped", `const o = { a: 1 }; Object.defineProperty(o, "h", { value: 2 }); return o`, `{"a":1}`),
		ok("value/symbol keys dropped", `return { [Symbol("k")]: 1, a: 2 }`, `{"a":2}`),
		ok("value/array extra properties dropped", `const a = [1]; a.x = 2; return a`, `[1]`),

		// Errors in values and in output.
		ok("value/error top level", `return new TypeError("bad")`, `{"name":"TypeError","message":"bad"}`),
		ok("value/error subclass name", `class E2 extends Error { get name() { return "E2" } } return new E2("m")`, `{"name":"E2","message":"m"}`),
		ok("value/aggregate error", `return new AggregateError([1], "agg")`, `{"name":"AggregateError","message":"agg"}`),
		ok("value/error nested is empty", `return { e: new Error("x") }`, `{"e":{}}`),
		ok("value/error with throwing name", `const e = new Error("m"); Object.defineProperty(e, "name", { get() { throw 1 } }); return e`, `"[object Error]"`),
		ok("value/error-like object is plain", `return { name: "Error", message: "not really" }`, `{"name":"Error","message":"not really"}`),
		with(ok("value/error in json output", `__cm_bridge.emit("json", JSON.stringify({ e: new Error("x"), t: new RangeError("r").name }))`, `null`), func(c *Case) {
			c.Want = `{"status":"completed","value":null,"output":["json:{\"e\":{},\"t\":\"RangeError\"}"]}`
		}),

		// toJSON, cycles and values that throw.
		ok("value/toJSON", `return { toJSON() { return { x: 1 } } }`, `{"x":1}`),
		ok("value/toJSON receives key", `return { a: { toJSON(k) { return "key:" + k } } }`, `{"a":"key:a"}`),
		ok("value/toJSON returning undefined", `return { toJSON() {} }`, `"[object Object]"`),
		ok("value/cycle", `const a = {}; a.self = a; return a`, `"[object Object]"`),
		ok("value/cycle with toString", `const a = { toString() { return "custom" } }; a.self = a; return a`, `"custom"`),
		ok("value/cyclic array", `const a = [1]; a.push(a); return a`, `"[object Array]"`),
		ok("value/getter that throws", `return { get bad() { throw new Error("nope") } }`, `"[object Object]"`),
		ok("value/toJSON that throws", `return { toJSON() { throw new Error("nope") } }`, `"[object Object]"`),
		ok("value/everything throws", `const a = {}; a.a = a; a.toString = () => { throw 1 }; return a`, `"[object Object]"`),
		ok("value/null prototype cycle", `const o = Object.create(null); o.o = o; return o`, `"[object Object]"`),
		ok("value/hostile proxy", `return new Proxy({}, { get(t, k) { if (k === "then") return undefined; throw new Error("trap") }, ownKeys() { throw new Error("trap") }, getPrototypeOf() { throw new Error("trap") } })`, `"[object Unknown]"`),
		fails("value/proxy throwing on then rejects the cell", `return new Proxy({}, { get() { throw new Error("trap") } })`, `{"kind":"guest-exception","name":"Error","message":"trap","line":1}`),
		ok("value/replaced JSON.stringify is not used", `JSON.stringify = () => '"hacked"'; return { a: 1 }`, `{"a":1}`),
		ok("value/Object.prototype.toJSON is honoured", `Object.prototype.toJSON = function () { return "tj" }; return { a: 1 }`, `"tj"`),

		// Deep nesting.
		ok("value/deep array", `let v = 0; for (let i = 0; i < 500; i++) v = [v]; return JSON.stringify(v).length`, `1001`),
		ok("value/deep object returned", `let v = {}; for (let i = 0; i < 200; i++) v = { v }; const s = JSON.stringify(v); return [s.length, s.slice(0, 10)]`, `[1202,"{\"v\":{\"v\":"]`),
		ok("value/deep JSON parse and stringify", `const s = "[".repeat(1000) + "]".repeat(1000); return JSON.stringify(JSON.parse(s)) === s`, `true`),
		ok("value/large string", `return "x".repeat(100000).length`, `100000`),
		ok("value/large array", `return Array.from({ length: 10000 }, (_, i) => i).reduce((a, b) => a + b)`, `49995000`),
	}
}
