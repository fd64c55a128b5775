package conformance

const bt = "`"

// languageCases cover syntax and semantics: the wrapper, async ordering,
// generators, classes, destructuring, control flow and regular expressions.
func languageCases() []Case {
	return []Case{
		// The wrapper: return sets the value, await works, bindings stay local.
		ok("wrapper/return", `return 1 + 2`, `3`),
		ok("wrapper/trailing expression is null", `1 + 2`, `null`),
		ok("wrapper/return undefined is null", `return undefined`, `null`),
		ok("wrapper/no return is null", `let x = 1`, `null`),
		ok("wrapper/top-level await", `const x = await Promise.resolve(41); return x + 1`, `42`),
		ok("wrapper/top-level let does not leak", `let x = 1; return typeof globalThis.x`, `"undefined"`),
		ok("wrapper/globalThis assignment is visible", `globalThis.leak = 1; return typeof leak`, `"number"`),
		ok("wrapper/cell code is sloppy", `return (function () { return this === globalThis })()`, `true`),
		ok("wrapper/use strict directive applies", `"use strict"; return (function () { return this === undefined })()`, `true`),
		ok("wrapper/break out of wrapper", "return 1\n})(); (() => { return 7", `7`),
		ok("wrapper/source without trailing newline ends in a comment", `return 5 // done`, `5`),

		// Async ordering.
		ok("async/microtasks before await continuation", `
const log = [];
Promise.resolve().then(() => log.push("then1")).then(() => log.push("then2"));
log.push("sync");
await null;
log.push("after await");
return log.slice();`, `["sync","then1","after await"]`),
		ok("async/value encoded after jobs drain", `
const log = [];
Promise.resolve().then(() => log.push("late"));
return log;`, `["late"]`),
		ok("async/interleaved async functions", `
const log = [];
async function a() { log.push("a1"); await null; log.push("a2"); await null; log.push("a3"); }
async function b() { log.push("b1"); await null; log.push("b2"); }
await Promise.all([a(), b()]);
return log.join();`, `"a1,b1,a2,b2,a3"`),
		ok("async/await thenable", `const t = { then(r) { r(5) } }; return await t`, `5`),
		ok("async/await rejected promise caught", `try { await Promise.reject(new Error("no")) } catch (e) { return e.message }`, `"no"`),
		ok("async/promise allSettled", `const r = await Promise.allSettled([Promise.resolve(1), Promise.reject(new Error("x"))]); return r.map(x => x.status)`, `["fulfilled","rejected"]`),
		ok("async/promise any aggregate error", `try { await Promise.any([Promise.reject(1)]) } catch (e) { return [e.constructor.name, e.errors] }`, `["AggregateError",[1]]`),
		ok("async/promise race", `return await Promise.race([new Promise(() => {}), Promise.resolve("fast")])`, `"fast"`),
		ok("async/finally runs", `const log = []; await Promise.resolve(1).finally(() => log.push("f")); return log`, `["f"]`),
		ok("async/promise with resolvers", `const { promise, resolve } = Promise.withResolvers(); resolve(3); return await promise`, `3`),
		ok("async/for await over promises", `const out = []; for await (const x of [Promise.resolve(1), 2]) out.push(x); return out`, `[1,2]`),
		ok("async/async generator", `async function* g() { yield 1; await null; yield 2 } const out = []; for await (const x of g()) out.push(x); return out`, `[1,2]`),
		{Name: "async/never settling promise is pending", Source: `await new Promise(() => {}); return 1`, Want: `{"status":"pending"}`},

		// Generators and iteration.
		ok("generator/spread", `function* g() { yield 1; yield 2; return 3 } return [...g()]`, `[1,2]`),
		ok("generator/finally on break", `
const log = [];
function* g() { try { yield 1; yield 2 } finally { log.push("cleanup") } }
for (const x of g()) { log.push(x); break }
return log`, `[1,"cleanup"]`),
		ok("generator/next with value", `function* g() { const x = yield 1; return x * 2 } const it = g(); it.next(); return it.next(21)`, `{"value":42,"done":true}`),
		ok("generator/yield star and return", `function* inner() { yield "a"; return "r" } function* outer() { const r = yield* inner(); yield r } return [...outer()]`, `["a","r"]`),
		ok("generator/custom iterator protocol", `const it = { *[Symbol.iterator]() { yield* [1, 2] } }; return [...it]`, `[1,2]`),
		ok("generator/throw into generator", `function* g() { try { yield 1 } catch (e) { yield "caught " + e } } const it = g(); it.next(); return it.throw("x").value`, `"caught x"`),

		// Classes.
		ok("class/getter and static factory", `class A { constructor(x) { this.x = x } get double() { return this.x * 2 } static make() { return new A(4) } } return A.make().double`, `8`),
		ok("class/super call", `class A { hi() { return "A" } } class B extends A { hi() { return super.hi() + "B" } } return new B().hi()`, `"AB"`),
		ok("class/private fields and methods", `class C { #n = 1; #bump() { return ++this.#n } inc() { return this.#bump() } static #s = 5; static s() { return C.#s } } const c = new C(); c.inc(); return [c.inc(), C.s(), Object.keys(c).length]`, `[3,5,0]`),
		ok("class/private in", `class C { #x; static has(o) { return #x in o } } return [C.has(new C()), C.has({})]`, `[true,false]`),
		ok("class/static block", `class C { static v; static { C.v = 7 } } return C.v`, `7`),
		ok("class/new.target and Reflect.construct", `class A { constructor() { this.t = new.target.name } } class B {} return Reflect.construct(A, [], B).t`, `"B"`),
		ok("class/extends builtin", `class L extends Array { sum() { return this.reduce((a, b) => a + b, 0) } } const l = L.from([1, 2, 3]); return [l.sum(), l instanceof L, Array.isArray(l)]`, `[6,true,true]`),
		ok("class/Symbol.hasInstance", `class Even { static [Symbol.hasInstance](n) { return n % 2 === 0 } } return [2 instanceof Even, 3 instanceof Even]`, `[true,false]`),
		ok("class/calling a class throws TypeError", `class A {} try { A() } catch (e) { return e.name }`, `"TypeError"`),

		// Destructuring, spread, optional chaining and friends.
		ok("destructure/object with defaults and rest", `const { a, b: { c = 5 } = {}, ...rest } = { a: 1, d: 4, e: 5 }; return [a, c, rest]`, `[1,5,{"d":4,"e":5}]`),
		ok("destructure/array holes defaults rest", `const [x, , y = 3, ...z] = [1, 2, undefined, 4, 5]; return [x, y, z]`, `[1,3,[4,5]]`),
		ok("destructure/swap", `let a = 1, b = 2; [a, b] = [b, a]; return [a, b]`, `[2,1]`),
		ok("destructure/getter order", `const log = []; const o = { get a() { log.push("a"); return 1 }, get b() { log.push("b"); return 2 } }; const { b, a } = o; return log`, `["b","a"]`),
		ok("destructure/parameters", `function f({ x, y = 2 } = {}, [z] = [3]) { return x + y + z } return [f({ x: 1 }), f({ x: 1, y: 1 }, [1])]`, `[6,3]`),
		ok("spread/calls arrays objects strings", `const o = { ...{ a: 1 }, ...null, b: 2 }; return [Math.max(...[1, 5, 3]), [..."héllo"].length, o]`, `[5,5,{"a":1,"b":2}]`),
		ok("spread/code points", `return [..."a😀"].length`, `2`),
		ok("optional/chaining", `const o = { a: { b: null }, f: null }; return [typeof o?.a?.b?.c, typeof o.f?.(), typeof o.x?.[0], o.a?.["b"]]`, `["undefined","undefined","undefined",null]`),
		ok("optional/short circuits the whole chain", `let n = 0; const o = null; o?.a.b.c(n++); return n`, `0`),
		ok("nullish/coalescing", `return [null ?? "d", 0 ?? "d", "" || "e", 0 || null]`, `["d",0,"e",null]`),
		ok("nullish/logical assignment", `let a = null, b = 1, c = 0; a ??= 2; b &&= 3; c ||= 4; return [a, b, c]`, `[2,3,4]`),

		// Control flow.
		ok("loop/labelled continue and break", `
const out = [];
outer: for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 3; j++) {
    if (j === 1) continue outer;
    if (i === 2) break outer;
    out.push(i + "" + j);
  }
}
return out`, `["00","10"]`),
		ok("loop/labelled block", `let r = "a"; blk: { r += "b"; break blk; r += "c" } return r`, `"ab"`),
		ok("loop/let per iteration", `const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); return fs.map(f => f())`, `[0,1,2]`),
		ok("loop/for in order", `const o = { b: 1, 2: 1, a: 1, 1: 1 }; const k = []; for (const x in o) k.push(x); return k`, `["1","2","b","a"]`),
		ok("loop/switch fallthrough", `const r = []; switch (2) { case 1: r.push(1); case 2: r.push(2); case 3: r.push(3); break; default: r.push(0) } return r`, `[2,3]`),
		ok("scope/temporal dead zone", `try { x; let x = 1 } catch (e) { return e.name }`, `"ReferenceError"`),
		ok("scope/finally overrides return", `function f() { try { return "try" } finally { return "finally" } } return f()`, `"finally"`),
		ok("function/default parameters and rest", `function f(a, b = a + 1, ...r) { return [a, b, r] } return f(1)`, `[1,2,[]]`),
		ok("function/arguments object", `function f() { return arguments.length } return f(1, 2, 3)`, `3`),
		ok("function/arrow this", `const o = { v: 1, f() { return [1].map(() => this.v) } }; return o.f()`, `[1]`),
		ok("function/eval and Function", `return [eval("1 + 1"), new Function("a", "b", "return a * b")(6, 7)]`, `[2,42]`),
		ok("template/tagged raw strings", "const tag = (s, ...v) => s.raw.join(\"|\") + v.join(\",\"); return tag"+bt+"a${1}b${2}c"+bt, `"a|b|c1,2"`),
		ok("template/String.raw", "return String.raw"+bt+"a\\nb"+bt, `"a\\nb"`),

		// Regular expressions.
		ok("regex/named groups", `const m = "2024-03-15".match(/(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})/); return m.groups`, `{"y":"2024","m":"03","d":"15"}`),
		ok("regex/named group replacement", `return "2024-03".replace(/(?<y>\d+)-(?<m>\d+)/, "$<m>/$<y>")`, `"03/2024"`),
		ok("regex/lookbehind", `return ["$10 €20 $30".match(/(?<=\$)\d+/g), "bc ac".replace(/(?<!a)c/g, "x")]`, `[["10","30"],"bx ac"]`),
		ok("regex/lookahead", `return "price: 100 USD 200 EUR".match(/\d+(?= EUR)/)[0]`, `"200"`),
		ok("regex/backreference", `return [/(\w)\1/.test("hello"), "aa bb cd".match(/(\w)\1/g)]`, `[true,["aa","bb"]]`),
		ok("regex/sticky", `const r = /a/y; r.lastIndex = 1; return [r.test("ba"), r.lastIndex, r.test("ba")]`, `[true,2,false]`),
		ok("regex/unicode flag", `return [/^.$/u.test("😀"), /^.$/.test("😀"), "😀".length]`, `[true,false,2]`),
		ok("regex/dotAll", `return [/a.b/s.test("a\nb"), /a.b/.test("a\nb")]`, `[true,false]`),
		ok("regex/matchAll", `return [..."a1b2".matchAll(/[a-z](\d)/g)].map(m => m[1] + "@" + m.index)`, `["1@0","2@2"]`),
		ok("regex/match indices", `return /b(c)/d.exec("abc").indices[1]`, `[2,3]`),
		ok("regex/unicode property escapes", `return "aé1Ω".match(/\p{L}/gu)`, `["a","é","Ω"]`),
		ok("regex/replace with function", `return "a-b".replace(/(\w)-(\w)/, (m, x, y, off) => y + x + off)`, `"ba0"`),
		ok("regex/split with captures", `return "a1b2c".split(/(\d)/)`, `["a","1","b","2","c"]`),
		ok("regex/lastIndex with global exec", `const r = /o/g; const s = "foo"; r.exec(s); const i = r.lastIndex; r.exec(s); return [i, r.lastIndex, r.exec(s), r.lastIndex]`, `[2,3,null,0]`),
	}
}
