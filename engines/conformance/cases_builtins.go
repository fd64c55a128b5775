package conformance

// builtinCases cover the standard library: Date (on fixed timestamps, so the
// clock does not matter), BigInt, Symbol, Proxy, Reflect, typed arrays,
// accessors, ES2023 Array and String methods, collections, numbers and Math.
func builtinCases() []Case {
	return []Case{
		// Date, always from fixed instants.
		ok("date/UTC constructor and ISO string", `return new Date(Date.UTC(2024, 1, 29, 12, 30)).toISOString()`, `"2024-02-29T12:30:00.000Z"`),
		ok("date/parse ISO", `return Date.parse("2000-01-01T00:00:00Z")`, `946684800000`),
		ok("date/parse date-only is UTC", `return Date.parse("2000-01-01")`, `946684800000`),
		ok("date/UTC arithmetic", `const d = new Date(0); d.setUTCDate(d.getUTCDate() + 40); return [d.getUTCMonth(), d.getUTCDate(), d.getUTCDay()]`, `[1,10,2]`),
		ok("date/JSON of a date", `return { d: new Date(86400000) }`, `{"d":"1970-01-02T00:00:00.000Z"}`),
		ok("date/invalid date", `const d = new Date("nope"); return [isNaN(d), String(d), d.toJSON()]`, `[true,"Invalid Date",null]`),
		ok("date/local time is UTC", `const d = new Date(0); return [d.getTimezoneOffset(), d.getHours(), new Date(2020, 0, 1).getTime()]`, `[0,0,1577836800000]`),
		ok("date/clock is real", `return typeof Date.now() === "number" && Date.now() > 1.6e12 && new Date().getFullYear() >= 2024`, `true`),
		ok("date/month overflow", `return new Date(Date.UTC(2023, 12, 1)).toISOString()`, `"2024-01-01T00:00:00.000Z"`),
		ok("date/far range", `return [new Date(8.64e15).toISOString(), new Date(8.64e15 + 1).getTime()]`, `["+275760-09-13T00:00:00.000Z",null]`),

		// BigInt.
		ok("bigint/arithmetic", `return [String(2n ** 64n), typeof 1n, String(7n / 2n), String(-7n % 3n), String(BigInt.asUintN(8, 257n)), 5n == 5, 5n === 5, 2n > 1]`, `["18446744073709551616","bigint","3","-1","1",true,false,true]`),
		ok("bigint/mixing with number throws", `try { 1n + 1 } catch (e) { return e.name }`, `"TypeError"`),
		ok("bigint/parse and format", `return [BigInt("0x1f").toString(), (255n).toString(16), BigInt.asIntN(8, 255n).toString()]`, `["31","ff","-1"]`),

		// Symbol.
		ok("symbol/keys and registry", `const s = Symbol("k"); const o = { [s]: 1, a: 2 }; return [s.description, Object.keys(o), Object.getOwnPropertySymbols(o).length, Symbol.for("x") === Symbol.for("x")]`, `["k",["a"],1,true]`),
		ok("symbol/toPrimitive", "const o = { [Symbol.toPrimitive](h) { return h === \"number\" ? 42 : \"str\" } }; return [+o, "+bt+"${o}"+bt+"]", `[42,"str"]`),
		ok("symbol/toStringTag", `class T { get [Symbol.toStringTag]() { return "Tee" } } return Object.prototype.toString.call(new T())`, `"[object Tee]"`),

		// Proxy and Reflect.
		ok("proxy/get and has traps", `const p = new Proxy({}, { get: (t, k) => typeof k === "string" ? k.toUpperCase() : undefined, has: () => true }); return [p.abc, "z" in p]`, `["ABC",true]`),
		ok("proxy/revoked throws TypeError", `const { proxy, revoke } = Proxy.revocable({}, {}); proxy.a = 1; revoke(); try { proxy.a } catch (e) { return e.name }`, `"TypeError"`),
		ok("proxy/set trap and ownKeys", `const log = []; const p = new Proxy({}, { set(t, k, v) { log.push(k); t[k] = v * 2; return true }, ownKeys: (t) => Reflect.ownKeys(t).reverse() }); p.a = 1; p.b = 2; return [log, Object.keys(p), p.b]`, `[["a","b"],["b","a"],4]`),
		ok("proxy/encoded through traps", `return new Proxy({ a: 1 }, { get: (t, k) => k === "a" ? 2 : Reflect.get(t, k) })`, `{"a":2}`),
		ok("reflect/define has ownKeys apply", `const o = {}; Reflect.defineProperty(o, "x", { value: 1, enumerable: false }); return [Reflect.has(o, "x"), Reflect.ownKeys(o), Object.keys(o), Reflect.apply(Math.max, null, [1, 3])]`, `[true,["x"],[],3]`),
		ok("reflect/getPrototypeOf and setPrototypeOf", `const p = { hi() { return "hi" } }; const o = {}; Reflect.setPrototypeOf(o, p); return [o.hi(), Reflect.getPrototypeOf(o) === p]`, `["hi",true]`),

		// Typed arrays and buffers.
		ok("typed/uint8 wraps and shares buffer", `const a = new Uint8Array([1, 2, 255]); a[0] = 256; return [Array.from(a), a.byteLength, new Int8Array(a.buffer)[2]]`, `[[0,2,255],3,-1]`),
		ok("typed/dataview endianness", `const dv = new DataView(new ArrayBuffer(4)); dv.setUint16(0, 0x1234); return [dv.getUint8(0), dv.getUint16(0, true)]`, `[18,13330]`),
		ok("typed/encoded as object", `return new Float32Array([1.5, 2])`, `{"0":1.5,"1":2}`),
		ok("typed/ES2023 methods", `const a = new Int16Array([3, 1, 2]); return [Array.from(a.toSorted()), Array.from(a), a.findLast(x => x > 1), Array.from(a.with(0, 9)), Array.from(a.toReversed())]`, `[[1,2,3],[3,1,2],2,[9,1,2],[2,1,3]]`),
		ok("typed/clamped and float conversions", `return [Array.from(new Uint8ClampedArray([300, -5, 1.5])), new Float32Array([0.1])[0] === 0.1, Array.from(new BigInt64Array([-1n]), String)]`, `[[255,0,2],false,["-1"]]`),
		ok("typed/subarray and slice", `const a = new Uint8Array([1, 2, 3, 4]); const s = a.subarray(1, 3); s[0] = 9; const c = a.slice(1, 3); c[0] = 7; return [Array.from(a), Array.from(c)]`, `[[1,9,3,4],[7,3]]`),
		ok("typed/out of range buffer throws RangeError", `try { new Uint8Array(new ArrayBuffer(4), 2, 4) } catch (e) { return e.name }`, `"RangeError"`),

		// Accessors.
		ok("accessor/getter and setter", `const o = { _v: 1, get v() { return this._v * 10 }, set v(x) { this._v = x } }; o.v = 4; return [o.v, JSON.stringify(o)]`, `[40,"{\"_v\":4,\"v\":40}"]`),
		ok("accessor/defineProperty getter is encoded", `const o = {}; Object.defineProperty(o, "g", { get() { return "got" }, enumerable: true }); return o`, `{"g":"got"}`),
		ok("accessor/frozen object in strict mode", `"use strict"; const o = Object.freeze({ a: 1 }); try { o.a = 2 } catch (e) { return [e.name, o.a, Object.isFrozen(o)] }`, `["TypeError",1,true]`),
		ok("accessor/class static accessor", `class C { static #v = 1; static get v() { return C.#v } static set v(x) { C.#v = x + 1 } } C.v = 5; return C.v`, `6`),

		// Array methods, including ES2023 change-array-by-copy.
		ok("array/ES2023 change by copy", `const a = [3, 1, 2]; return [a.toSorted(), a.toReversed(), a.with(1, 9), a.toSpliced(0, 1, "x"), a]`, `[[1,2,3],[2,1,3],[3,9,2],["x",1,2],[3,1,2]]`),
		ok("array/findLast and findLastIndex", `return [[1, 2, 3, 4].findLast(x => x % 2), [1, 2, 3, 4].findLastIndex(x => x > 5)]`, `[3,-1]`),
		ok("array/at flat flatMap includes", `return [[1, 2, 3].at(-1), [[1], [2, [3]]].flat(Infinity), [1, 2].flatMap(x => [x, x * 10]), [NaN].includes(NaN), [NaN].indexOf(NaN)]`, `[3,[1,2,3],[1,10,2,20],true,-1]`),
		ok("array/sort is stable", `const a = [{ k: 1, v: "a" }, { k: 0, v: "b" }, { k: 1, v: "c" }, { k: 0, v: "d" }]; return a.sort((x, y) => x.k - y.k).map(x => x.v).join("")`, `"bdac"`),
		ok("array/default sort is by string", `return [10, 9, 1, 100].sort()`, `[1,10,100,9]`),
		ok("array/holes", `const a = [1, , 3]; return [a.length, 1 in a, a.indexOf(undefined), a.includes(undefined), a]`, `[3,false,-1,true,[1,null,3]]`),
		ok("array/from and of", `return [Array.from({ length: 3 }, (_, i) => i * i), Array.of(7), Array.from(new Set([1, 1, 2]))]`, `[[0,1,4],[7],[1,2]]`),
		ok("array/reduce copyWithin fill", `return [[1, 2, 3].reduceRight((a, b) => a + b), [1, 2, 3, 4, 5].copyWithin(0, 3), new Array(3).fill(0)]`, `[6,[4,5,3,4,5],[0,0,0]]`),
		ok("array/length truncation", `const a = [1, 2, 3]; a.length = 1; return a`, `[1]`),
		ok("array/groupBy", `return [Object.groupBy([1, 2, 3, 4], x => x % 2 ? "odd" : "even"), Map.groupBy([1, 2, 3], x => x > 1).get(true)]`, `[{"odd":[1,3],"even":[2,4]},[2,3]]`),

		// String methods.
		ok("string/ES2021 and ES2022 methods", `return ["a-b-c".replaceAll("-", "+"), "abc".at(-1), "x".padStart(3, "ab"), "  t ".trimEnd() + "|", Object.hasOwn({ a: 1 }, "a")]`, `["a+b+c","c","abx","  t|",true]`),
		ok("string/code points and normalize", `return ["😀".codePointAt(0), "é".normalize("NFD").length, String.fromCodePoint(0x1F600).length, "\u0041\u030A".normalize("NFC")]`, `[128512,2,2,"Å"]`),
		ok("string/well-formed", `return ["ab".isWellFormed(), "a\ud800".isWellFormed(), "a\ud800".toWellFormed()]`, "[true,false,\"a\uFFFD\"]"),
		ok("string/case and search", `return ["İ".toLowerCase().length, "ß".toUpperCase(), "abcabc".lastIndexOf("b"), "abc".startsWith("b", 1), "abc".endsWith("b", 2), "a".localeCompare("b")]`, `[2,"SS",4,true,true,-1]`),
		ok("string/split slice substring", `return ["a,b,,c".split(","), "abcdef".slice(-3, -1), "abcdef".substring(4, 1), "abc".split("")]`, `[["a","b","","c"],"de","bcd",["a","b","c"]]`),
		ok("string/repeat and trim", `return ["ab".repeat(3), "\t x \n".trim(), "x".concat(1, null)]`, `["ababab","x","x1null"]`),
		ok("string/comparison by code units", `return ["a" < "b", "B" < "a", "😀" > "\uffff", ["b", "a", "C"].sort()]`, `[true,true,false,["C","a","b"]]`),

		// Collections.
		ok("collection/map insertion order", `const m = new Map([["b", 1], ["a", 2]]); m.delete("b"); m.set("b", 3); return [[...m.keys()], new Set([3, 1, 3, 2]).size, [...new Set([3, 1, 3, 2])]]`, `[["a","b"],3,[3,1,2]]`),
		ok("collection/map keys by SameValueZero", `const m = new Map(); m.set(NaN, "n"); m.set(-0, "z"); return [m.get(NaN), m.get(0), m.size]`, `["n","z",2]`),
		ok("collection/weak map", `const k = {}; const w = new WeakMap([[k, 1]]); return [w.get(k), w.has({}), new WeakSet([k]).has(k)]`, `[1,false,true]`),
		ok("collection/set methods", `const a = new Set([1, 2, 3]), b = new Set([2, 3, 4]); return [[...a.union(b)], [...a.intersection(b)], [...a.difference(b)], a.isSubsetOf(new Set([1, 2, 3, 4]))]`, `[[1,2,3,4],[2,3],[1],true]`),
		ok("object/entries and fromEntries", `return Object.fromEntries(Object.entries({ a: 1, b: 2 }).map(([k, v]) => [k + k, v * 2]))`, `{"aa":2,"bb":4}`),
		ok("object/key order", `return Object.keys({ b: 1, 2: 1, a: 1, 1: 1, [-1]: 1 })`, `["1","2","b","a","-1"]`),
		ok("object/assign and descriptors", `const o = Object.assign({}, { a: 1 }, null, { b: 2 }); const d = Object.getOwnPropertyDescriptor(o, "a"); return [o, d.writable, d.enumerable, d.configurable]`, `[{"a":1,"b":2},true,true,true]`),

		// Numbers and Math.
		ok("number/arithmetic", `return [2 ** 10, 7 % -3, -7 % 3, 0.1 + 0.2, (1234.5678).toFixed(2), Number.MAX_SAFE_INTEGER, 1_000, 0b101, 0o17]`, `[1024,1,-1,0.30000000000000004,"1234.57",9007199254740991,1000,5,15]`),
		ok("number/to string and parse", `return [String(1e21), String(1e-7), (255).toString(16), (0.000001).toString(), (123.456).toPrecision(4), Number("0x1f"), parseInt("08"), parseFloat("3.14abc"), (25).toString(36), Number("")]`, `["1e+21","1e-7","ff","0.000001","123.5",31,8,3.14,"p",0]`),
		ok("number/exponential and fixed", `return [(123456).toExponential(2), (0.5).toFixed(0), (1.5).toFixed(0), (2.5).toFixed(0), (1e21).toFixed(2)]`, `["1.23e+5","1","2","3","1e+21"]`),
		ok("number/integer checks", `return [Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), Number.EPSILON > 0, Number.isNaN("x"), isNaN("x")]`, `[true,false,true,false,true]`),
		ok("math/functions", `return [Math.trunc(-4.7), Math.sign(-3), Math.hypot(3, 4), Math.cbrt(27), Math.clz32(1), Math.fround(5.5), Math.max(), Math.round(-0.5), Math.round(2.5)]`, `[-4,-1,5,3,31,5.5,null,0,3]`),
		ok("math/random is in range and varies", `const a = Math.random(), b = Math.random(); return [a >= 0 && a < 1, a !== b]`, `[true,true]`),
		ok("json/parse with reviver", `return JSON.parse('{"a":1,"b":[2]}', (k, v) => typeof v === "number" ? v * 10 : v)`, `{"a":10,"b":[20]}`),
		ok("json/stringify indent and replacer", `return [JSON.stringify({ a: [1] }, null, 2), JSON.stringify({ a: 1, b: 2, c: 3 }, ["c", "a"])]`, `["{\n  \"a\": [\n    1\n  ]\n}","{\"c\":3,\"a\":1}"]`),
		ok("json/parse error is SyntaxError", `try { JSON.parse("{bad") } catch (e) { return e.name }`, `"SyntaxError"`),
		ok("json/parse surrogate pair escape", `return JSON.parse('"\\ud83d\\ude00"')`, `"😀"`),
		ok("json/parse huge number and negative zero", `const z = JSON.parse("-0"); return [JSON.parse("1e400"), Object.is(z, -0)]`, `[null,true]`),
		ok("error/cause", `const e = new Error("outer", { cause: "inner" }); return e.cause`, `"inner"`),
		ok("error/subclass", `class MyErr extends Error { constructor(m) { super(m); this.name = "MyErr" } } try { throw new MyErr("m") } catch (e) { return [e instanceof Error, e.name, e.message, String(e)] }`, `[true,"MyErr","m","MyErr: m"]`),
	}
}
