package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
)

// consoleCases check console (abi/console.js): one text output item per
// call, formatted as Node's console prints the same values (util.inspect's
// defaults), a level prefix on everything but log, and bounded work on
// hostile values. Errors get their stack set by hand where printed whole:
// the frames are the engine's own.
func consoleCases() []Case {
	// logs is a row whose cell completes with undefined after printing lines.
	logs := func(name, src string, lines ...string) Case {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = "text:" + l
		}
		b, err := json.Marshal(out)
		if err != nil {
			panic(err)
		}
		return Case{Name: "console/" + name, Source: src, Want: `{"status":"completed","value":null,"output":` + string(b) + `}`}
	}
	// columns is Node's layout of the first 100 of n > 100 short items: 12
	// columns, each as wide as its widest item, numbers right-aligned.
	columns := func(prefix string, n int, item func(int) string) string {
		var b strings.Builder
		b.WriteString(prefix + "[\n")
		for row := 0; row < 100; row += 12 {
			b.WriteString(" ")
			for i := row; i < row+12 && i < 100; i++ {
				w := 0
				for j := i % 12; j < 100; j += 12 {
					w = max(w, len(item(j)))
				}
				fmt.Fprintf(&b, " %*s,", w, item(i))
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  ... %d more items\n]", n-100)
		return b.String()
	}
	numbers := func(n int) string { return columns("", n, func(i int) string { return fmt.Sprint(i) }) }
	// deepChain is { v: { v: ... } } printed 20 levels deep.
	deepChain := func() string {
		var b strings.Builder
		b.WriteString("{\n")
		for i := 1; i <= 17; i++ {
			b.WriteString(strings.Repeat("  ", i) + "v: {\n")
		}
		b.WriteString(strings.Repeat("  ", 18) + "v: { v: { v: { v: [Object] } } }\n")
		for i := 17; i >= 1; i-- {
			b.WriteString(strings.Repeat("  ", i) + "}\n")
		}
		return b.String() + "}"
	}
	// wideKeys is { k0: 0, k1: 1, ... } with n > 100 keys, indented by
	// indent, the value of k0 being first when that is not empty.
	wideKeys := func(n int, indent, first string) string {
		var b strings.Builder
		b.WriteString("{\n")
		for i := 0; i < 100; i++ {
			v := fmt.Sprint(i)
			if i == 0 && first != "" {
				v = first
			}
			fmt.Fprintf(&b, "%s  k%d: %s,\n", indent, i, v)
		}
		fmt.Fprintf(&b, "%s  ... %d more items\n%s}", indent, n-100, indent)
		return b.String()
	}
	cut := 1 << 20
	return []Case{
		// The global itself.
		{Name: "console/is a non-enumerable, writable global", Source: `
const d = Object.getOwnPropertyDescriptor(globalThis, "console");
const { log } = console;
log("unbound works");
return [typeof console.log, d.enumerable, d.writable, d.configurable, Object.keys(globalThis).includes("console"),
  ["log", "info", "warn", "error", "debug", "trace", "dir", "table", "assert", "count", "countReset", "time", "timeEnd", "timeLog", "group", "groupEnd"].every((m) => typeof console[m] === "function"),
  console.log("x") === undefined]`,
			Want: `{"status":"completed","value":["function",false,true,true,false,true,true],"output":["text:unbound works","text:x"]}`},

		// Levels: log is bare, the others say their level; one item a call.
		logs("levels", `console.log("plain"); console.info("fyi"); console.warn("careful", 1); console.error("broken", { code: 500 }); console.debug("details"); console.log()`,
			"plain", "[info] fyi", "[warn] careful 1", "[error] broken { code: 500 }", "[debug] details", ""),
		logs("multi-line value is one item", `console.log({ status: 200, data: { user: { id: 42, name: "Ada Lovelace", email: "ada@example.com", roles: ["admin", "editor"] }, meta: { requestId: "req_8f3a", elapsedMs: 12.5 } } })`,
			`{
  status: 200,
  data: {
    user: {
      id: 42,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      roles: [Array]
    },
    meta: { requestId: 'req_8f3a', elapsedMs: 12.5 }
  }
}`),

		// Primitives.
		logs("primitives", `console.log("str", 1, -0, 1.5e-7, 1e21, NaN, -Infinity, 10n, undefined, null, true, Symbol("id"), Symbol())`,
			"str 1 -0 1.5e-7 1e+21 NaN -Infinity 10n undefined null true Symbol(id) Symbol()"),
		logs("strings quote and escape inside values", `console.log({ a: "x", b: "it's", c: 'say "hi"', d: "tab\there\nnewline", e: "all ' \" \u0060 three", f: "\u0001\u007f\\" }, ["x"], "top level stays raw: it's")`,
			`{
  a: 'x',
  b: "it's",
  c: 'say "hi"',
  d: 'tab\there\nnewline',
  e: 'all \' " `+"`"+` three',
  f: '\x01\x7F\\'
} [ 'x' ] top level stays raw: it's`),
		logs("string with single quotes and no backtick", `console.log(["it's \"quoted\""])`, "[ `it's \"quoted\"` ]"),
		logs("lone surrogates are escaped", `console.log(["a\ud83d", "\ude00b", "😀"])`, `[ 'a\ud83d', '\ude00b', '😀' ]`),

		// Objects and arrays.
		logs("arrays and objects", `console.log([1, 2, 3], [], {}, { a: 1, b: [1, 2] }, [[]], [{}])`, "[ 1, 2, 3 ] [] {} { a: 1, b: [ 1, 2 ] } [ [] ] [ {} ]"),
		logs("keys that are not identifiers are quoted", `console.log({ "content-type": "application/json", "x-request-id": "abc", ok: true, "2xx": 1, "$meta": null, _id: 7, "": 0, "it's": 1 })`,
			`{
  'content-type': 'application/json',
  'x-request-id': 'abc',
  ok: true,
  '2xx': 1,
  '$meta': null,
  _id: 7,
  '': 0,
  "it's": 1
}`),
		logs("array of records", `console.log([
  { id: 1, title: "Fix login bug", done: true, tags: ["auth"] },
  { id: 2, title: "Write release notes", done: false, tags: [] },
  { id: 3, title: "Update dependencies", done: false, tags: ["chore", "deps"] },
])`, `[
  { id: 1, title: 'Fix login bug', done: true, tags: [ 'auth' ] },
  { id: 2, title: 'Write release notes', done: false, tags: [] },
  {
    id: 3,
    title: 'Update dependencies',
    done: false,
    tags: [ 'chore', 'deps' ]
  }
]`),
		logs("nested beyond depth 2", `console.log({ level1: { level2: { level3: { level4: "too deep" } }, list: [[1, [2, [3]]]] } }, { a: { b: { c: {} } } }, { a: { b: { c: [] } } })`,
			"{ level1: { level2: { level3: [Object] }, list: [ [Array] ] } } { a: { b: { c: {} } } } { a: { b: { c: [] } } }"),
		logs("line breaking follows Node's width rule", `
console.log({ a: "x".repeat(16), b: "y".repeat(16), c: "z".repeat(16) });
console.log({ a: "x".repeat(16), b: "y".repeat(16), c: "z".repeat(17) });
console.log([[{ a: "x".repeat(16), b: "y".repeat(16), c: "z".repeat(12) }]]);
console.log([[{ a: "x".repeat(16), b: "y".repeat(16), c: "z".repeat(13) }]]);
console.log({ a: { b: { c: { d: 1 } } } });
console.log({ a: [{ b: { c: 1 } }] });`,
			"{ a: 'xxxxxxxxxxxxxxxx', b: 'yyyyyyyyyyyyyyyy', c: 'zzzzzzzzzzzzzzzz' }",
			"{\n  a: 'xxxxxxxxxxxxxxxx',\n  b: 'yyyyyyyyyyyyyyyy',\n  c: 'zzzzzzzzzzzzzzzzz'\n}",
			"[\n  [\n    { a: 'xxxxxxxxxxxxxxxx', b: 'yyyyyyyyyyyyyyyy', c: 'zzzzzzzzzzzz' }\n  ]\n]",
			"[\n  [\n    {\n      a: 'xxxxxxxxxxxxxxxx',\n      b: 'yyyyyyyyyyyyyyyy',\n      c: 'zzzzzzzzzzzzz'\n    }\n  ]\n]",
			"{ a: { b: { c: [Object] } } }",
			"{ a: [ { b: [Object] } ] }"),
		logs("short arrays are grouped in columns", `
console.log(Array.from({ length: 27 }, (_, i) => i * i));
console.log(["apple", "banana", "cherry", "date", "elderberry", "fig", "grape", "honeydew"]);
console.log(Array.from({ length: 7 }, () => ({ a: 1 })));
console.log(["a", 1, "b", 2, "c", 3, "d", 4]);`,
			`[
    0,   1,   4,   9,  16,  25,  36,
   49,  64,  81, 100, 121, 144, 169,
  196, 225, 256, 289, 324, 361, 400,
  441, 484, 529, 576, 625, 676
]`,
			`[
  'apple',
  'banana',
  'cherry',
  'date',
  'elderberry',
  'fig',
  'grape',
  'honeydew'
]`,
			`[
  { a: 1 }, { a: 1 },
  { a: 1 }, { a: 1 },
  { a: 1 }, { a: 1 },
  { a: 1 }
]`,
			`[
  'a', 1, 'b', 2,
  'c', 3, 'd', 4
]`),
		logs("long arrays stop after 100 items", `console.log(Array.from({ length: 150 }, (_, i) => i)); console.log(new Set(Array.from({ length: 120 }, (_, i) => i)).size, Array.from({ length: 101 }, () => "x").slice(99))`,
			numbers(150), "120 [ 'x', 'x' ]"),
		logs("arrays with holes", `const a = [1, , , 4]; a[9] = 9; console.log([, 1], a, new Array(3), Object.assign([1, 2], { extra: true }))`,
			"[ <1 empty item>, 1 ] [ 1, <2 empty items>, 4, <5 empty items>, 9 ] [ <3 empty items> ] [ 1, 2, extra: true ]"),
		logs("multi-line strings in values", `console.log({ body: "line one of the response body\nline two of the response body\nline three and more" })`,
			"{\n  body: 'line one of the response body\\n' +\n    'line two of the response body\\n' +\n    'line three and more'\n}"),
		logs("nested strings stop at 10000 characters", `console.log(["ab".repeat(6000)])`,
			"[\n  '"+strings.Repeat("ab", 5000)+"'... 2000 more characters\n]"),
		logs("getters are not called", `console.log({ get a() { throw new Error("getter ran") }, set b(v) {}, get c() { return 1 }, set c(v) {}, d: 1 })`,
			"{ a: [Getter], b: [Setter], c: [Getter/Setter], d: 1 }"),
		logs("symbol keys, inherited and hidden properties", `const o = Object.create({ inherited: true }); o.own = 2; o[Symbol("id")] = 1; Object.defineProperty(o, "hidden", { value: 3 }); console.log(o, { ["__proto__"]: 1 })`,
			"{ own: 2, [Symbol(id)]: 1 } { ['__proto__']: 1 }"),

		// Circular structures.
		logs("circular references", `
const o = { name: "root", children: [] };
o.children.push({ name: "leaf", parent: o });
o.self = o;
console.log(o);
const a = [1]; a.push(a); console.log(a);
const p = { a: { b: {} } }; p.a.b.up = p.a; p.a.b.top = p; console.log(p);`,
			"<ref *1> {\n  name: 'root',\n  children: [ { name: 'leaf', parent: [Circular *1] } ],\n  self: [Circular *1]\n}",
			"<ref *1> [ 1, [Circular *1] ]",
			"<ref *2> {\n  a: <ref *1> { b: { up: [Circular *1], top: [Circular *2] } }\n}"),
		logs("the same object twice is not circular", `const x = { v: 1 }; console.log({ a: x, b: x }, [x, x])`, "{ a: { v: 1 }, b: { v: 1 } } [ { v: 1 }, { v: 1 } ]"),

		// Built-in kinds.
		logs("maps and sets", `console.log(new Map([["alice", { visits: 3 }], ["bob", { visits: 1 }]]), new Set(["a", "b"]), new Map(), new Set(), new Map([[{ k: 1 }, [1, 2]]]), { m: new Map([["k", new Map([["k2", new Map([["k3", 1]])]])]]) })`,
			"Map(2) { 'alice' => { visits: 3 }, 'bob' => { visits: 1 } } Set(2) { 'a', 'b' } Map(0) {} Set(0) {} Map(1) { { k: 1 } => [ 1, 2 ] } { m: Map(1) { 'k' => Map(1) { 'k2' => [Map] } } }"),
		logs("dates and regexps", `console.log(new Date(Date.UTC(2024, 0, 15, 10, 30)), new Date(NaN), /^[a-z]+$/gi, { at: new Date(0), re: /x/ })`,
			"2024-01-15T10:30:00.000Z Invalid Date /^[a-z]+$/gi { at: 1970-01-01T00:00:00.000Z, re: /x/ }"),
		logs("functions and classes", `
class Point { constructor(x, y) { this.x = x; this.y = y; } }
class Point3 extends Point {}
const anon = [() => {}][0];
console.log(function fetchUser() {}, anon, class Foo {}, Point3, async function load() {}, function* ids() {}, Math.max, (function f() {}).bind(null));
console.log(Object.assign(function f() {}, { retries: 3 }), { handler() {}, arrow: () => 1, classify() {} });`,
			"[Function: fetchUser] [Function (anonymous)] [class Foo] [class Point3 extends Point] [AsyncFunction: load] [GeneratorFunction: ids] [Function: max] [Function: bound f]",
			"[Function: f] { retries: 3 } {\n  handler: [Function: handler],\n  arrow: [Function: arrow],\n  classify: [Function: classify]\n}"),
		logs("class instances and null prototypes", `
class Point { constructor(x, y) { this.x = x; this.y = y; } }
class Empty {}
class Tagged { get [Symbol.toStringTag]() { throw new Error("tag getter ran") } }
console.log(new Point(1, 2), new Empty(), Object.assign(Object.create(null), { a: 1 }), Object.create(null), new Tagged(), { nested: new Point(3, 4) });`,
			"Point { x: 1, y: 2 } Empty {} [Object: null prototype] { a: 1 } [Object: null prototype] {} Tagged {} { nested: Point { x: 3, y: 4 } }"),
		logs("typed arrays, buffers, promises and weak collections", `console.log(new Uint8Array([1, 2, 3]), new Float64Array([0.5, -0]), new BigInt64Array(1), new Uint8Array(0), new ArrayBuffer(4), new Promise(() => {}), new WeakMap(), new WeakSet())`,
			"Uint8Array(3) [ 1, 2, 3 ] Float64Array(2) [ 0.5, -0 ] BigInt64Array(1) [ 0n ] Uint8Array(0) [] ArrayBuffer { [Uint8Contents]: <00 00 00 00>, byteLength: 4 } Promise { <pending> } WeakMap { <items unknown> } WeakSet { <items unknown> }"),
		logs("a large typed array", `console.log(new Uint8Array(1e6))`, columns("Uint8Array(1000000) ", 1e6, func(int) string { return "0" })),
		logs("boxed primitives and tagged objects", `console.log(new Number(3), new String("ab"), new Boolean(false), Math, JSON, (function* () {})())`,
			"[Number: 3] [String: 'ab'] [Boolean: false] Object [Math] {} Object [JSON] {} Object [Generator] {}"),

		// Errors.
		logs("errors print their stack", `
const e = new Error("with code");
e.stack = "Error: with code\n    at fetchUser (cell.js:3:11)";
e.code = "E_FETCH";
console.error(e);
const plain = new Error("plain"); plain.stack = "Error: plain\n    at main (cell.js:6:15)";
console.log(plain, "after");`,
			"[error] Error: with code\n    at fetchUser (cell.js:3:11) {\n  code: 'E_FETCH'\n}",
			"Error: plain\n    at main (cell.js:6:15) after"),
		logs("an error without frames is bracketed", `const e = new TypeError("bad input"); e.stack = "TypeError: bad input"; const f = new Error("m"); f.stack = ""; console.log(e, { error: e }, f)`,
			"[TypeError: bad input] { error: [TypeError: bad input] } [Error: m]"),
		logs("nested errors are indented", `const e = new Error("deep"); e.stack = "Error: deep\n    at g (cell.js:2:3)"; e.status = 404; console.log({ result: { error: e } })`,
			"{\n  result: {\n    error: Error: deep\n        at g (cell.js:2:3) {\n      status: 404\n    }\n  }\n}"),
		logs("error subclasses show their class", `
class ValidationError extends Error {}
class HttpError extends TypeError {}
const v = new ValidationError("bad field"); v.stack = "Error: bad field\n    at check (cell.js:4:11)";
const h = new HttpError("404"); h.stack = "TypeError: 404";
console.log(v); console.log(h);`,
			"ValidationError: bad field\n    at check (cell.js:4:11)", "[HttpError [TypeError]: 404]"),
		logs("error causes", `const inner = new Error("inner"); inner.stack = "Error: inner\n    at i (cell.js:1:1)"; const e = new Error("outer", { cause: inner }); e.stack = "Error: outer\n    at o (cell.js:1:2)"; console.log(e)`,
			"Error: outer\n    at o (cell.js:1:2) {\n  [cause]: Error: inner\n      at i (cell.js:1:1)\n}"),
		logs("errors in catch blocks", `
try { throw new Error("HTTP 503 from /v1/users") } catch (e) { console.error("request failed:", e.message) }
try { JSON.parse("{") } catch (e) { console.error("parse failed:", e.name) }
const r = { ok: false, error: { code: "RATE_LIMITED", retryAfter: 30 } };
if (!r.ok) console.warn("retrying in %ds:", r.error.retryAfter, r.error);`,
			"[error] request failed: HTTP 503 from /v1/users", "[error] parse failed: SyntaxError",
			"[warn] retrying in 30s: { code: 'RATE_LIMITED', retryAfter: 30 }"),

		// printf-style format strings.
		logs("format specifiers", `
console.log("%s has %d items costing %f (%i%%)", "cart", 3, "9.99", 42.7);
console.log("%j", { a: [1, "x"], b: null });
console.log("%o|%O", { a: { b: { c: { d: { e: 1 } } } } }, { a: { b: { c: { d: 1 } } } });
console.log("%c%s", "color: red", "styled");
console.log("%%"); console.log("%% done", "x"); console.log("100%"); console.log("%s and %s", "one");
console.log("%x %s", 1, 2); console.log("no specifiers", { a: 1 }, 2); console.log(5, "%s", "x");`,
			"cart has 3 items costing 9.99 (42%)", `{"a":[1,"x"],"b":null}`,
			"{\n  a: {\n    b: { c: { d: { e: 1 } } }\n  }\n}|{ a: { b: { c: [Object] } } }",
			"styled", "%%", "% done x", "100%", "one and %s", "%x 1 2", "no specifiers { a: 1 } 2", "5 %s x"),
		logs("format specifiers on odd values", `
console.log("%d %d %d %i %s %s", -0, 10n, "0x10", 10n, -0, 5n);
console.log("%s %s %s", Symbol("t"), null, undefined);
console.log("%s", { a: { b: 1 } }, [1, [2, [3]]]);
console.log("%s", function named() { return 1 });
const c = {}; c.c = c; console.log("%j", c);
console.log("%j %j", undefined, () => 1);
const hostile = { toString() { throw new Error("toString ran") }, valueOf() { throw new Error("valueOf ran") }, [Symbol.toPrimitive]() { throw new Error("toPrimitive ran") } };
console.log("%d %i %f", hostile, hostile, hostile);
console.log("%d %f", new Number(4), new Date(5));`,
			"-0 10n 16 10n -0 5n", "Symbol(t) null undefined", "{ a: [Object] } [ 1, [ 2, [ 3 ] ] ]", "function named() { return 1 }",
			"[Circular]", "undefined undefined", "NaN NaN NaN", "4 5"),
		ok("console/%j throws what JSON.stringify throws, but a cycle", `try { console.log("%j", { n: 1n }) } catch (e) { return e.name }`, `"TypeError"`),

		// The other methods.
		logs("group indents", `
console.group("Fetching users");
console.log("page 1\npage 2");
console.group();
console.warn("slow");
console.groupEnd();
console.groupEnd();
console.groupEnd();
console.log("done");`,
			"Fetching users", "  page 1\n  page 2", "    [warn] slow", "done"),
		logs("assert", `console.assert(true, "never"); console.assert(1 > 2, "expected %d > %d", 1, 2); console.assert(false); console.assert(0, { got: 0 })`,
			"[error] Assertion failed: expected 1 > 2", "[error] Assertion failed", "[error] Assertion failed { got: 0 }"),
		logs("count", `console.count(); console.count(); console.count("api"); console.countReset(); console.count(); console.countReset("nope")`,
			"default: 1", "default: 2", "api: 1", "default: 1", "[warn] Count for 'nope' does not exist"),
		logs("time labels", `console.time("t"); console.time("t"); console.timeEnd("missing"); console.timeLog("missing")`,
			"[warn] Label 't' already exists for console.time()", "[warn] No such label 'missing' for console.timeEnd()",
			"[warn] No such label 'missing' for console.timeLog()"),
		// The elapsed time is not the same twice, so the host refuses the line:
		// what shows is whether timeEnd printed and whether the label is gone.
		{Name: "console/timeEnd prints and forgets the label", OutputLimit: 1, Source: `
console.log("first");
const r = [];
console.time("t");
try { console.timeLog("t", { step: 1 }); r.push("silent") } catch (e) { r.push(e.message) }
try { console.timeEnd("t"); r.push("silent") } catch (e) { r.push(e.message) }
try { console.time("t"); r.push("restarted") } catch (e) { r.push(e.message) }
return r`,
			Want: `{"status":"completed","value":["code mode output limit exceeded","code mode output limit exceeded","restarted"],"output":["text:first"]}`},
		logs("dir, trace, table", `console.dir("str"); console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 }); console.dir({ a: { b: { c: { d: { e: 1 } } } } }, { depth: null }); console.trace("here", 1); console.trace(); console.table([{ a: 1 }])`,
			"'str'", "{ a: [Object] }", "{\n  a: {\n    b: { c: { d: { e: 1 } } }\n  }\n}", "[debug] Trace: here 1", "[debug] Trace", "┌─────────┬───┐\n│ (index) │ a │\n├─────────┼───┤\n│ 0       │ 1 │\n└─────────┴───┘"),
		logs("table draws a table as Node does", `console.table([{ a: 1, b: "x" }, { a: 22, c: [1, 2] }]); console.table({ r1: { x: 1 }, r2: { y: "yy" } }); console.table([1, "two", { a: 3 }]); console.table([{ a: 1, b: 2 }], ["a"]); console.table(5); console.table(new Map([["k", { v: 1 }]])); console.table(new Set(["s"])); console.table([{ a: { p: 1, q: 2, r: 3 }, b: { p: 1 } }])`,
			"┌─────────┬────┬─────┬──────────┐\n│ (index) │ a  │ b   │ c        │\n├─────────┼────┼─────┼──────────┤\n│ 0       │ 1  │ 'x' │          │\n│ 1       │ 22 │     │ [ 1, 2 ] │\n└─────────┴────┴─────┴──────────┘", "┌─────────┬───┬──────┐\n│ (index) │ x │ y    │\n├─────────┼───┼──────┤\n│ r1      │ 1 │      │\n│ r2      │   │ 'yy' │\n└─────────┴───┴──────┘", "┌─────────┬───┬────────┐\n│ (index) │ a │ Values │\n├─────────┼───┼────────┤\n│ 0       │   │ 1      │\n│ 1       │   │ 'two'  │\n│ 2       │ 3 │        │\n└─────────┴───┴────────┘", "┌─────────┬───┐\n│ (index) │ a │\n├─────────┼───┤\n│ 0       │ 1 │\n└─────────┴───┘", "5", "┌───────────────────┬─────┬──────────┐\n│ (iteration index) │ Key │ Values   │\n├───────────────────┼─────┼──────────┤\n│ 0                 │ 'k' │ { v: 1 } │\n└───────────────────┴─────┴──────────┘", "┌───────────────────┬────────┐\n│ (iteration index) │ Values │\n├───────────────────┼────────┤\n│ 0                 │ 's'    │\n└───────────────────┴────────┘", "┌─────────┬──────────┬──────────┐\n│ (index) │ a        │ b        │\n├─────────┼──────────┼──────────┤\n│ 0       │ [Object] │ { p: 1 } │\n└─────────┴──────────┴──────────┘"),
		{Name: "console/past the output limit it throws to the caller", OutputLimit: 1, Source: `
console.log("first");
try { console.error("second") } catch (e) { return e.message }`,
			Want: `{"status":"completed","value":"code mode output limit exceeded","output":["text:first"]}`},

		// Hostile values.
		logs("a proxy whose traps throw", `
const boom = () => { throw new Error("trap") };
const p = new Proxy({}, { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom });
console.log(p); console.log({ p, ok: 1 }); console.log("%s|%O|%d", p, p, p);
const r = Proxy.revocable({}, {}); r.revoke(); console.log([r.proxy]);
console.log(new Proxy([1, 2], {}), new Proxy({ a: 1 }, {}));`,
			"[Uninspectable]", "{ p: [Uninspectable], ok: 1 }", "[Uninspectable]|[Uninspectable]|NaN", "[ [Uninspectable] ]", "[ 1, 2 ] { a: 1 }"),
		logs("a ten-level deep object", `
let deep = { level: 10 };
for (let i = 9; i > 0; i--) deep = { level: i, next: deep };
console.log(deep);
console.dir(deep, { depth: Infinity });`,
			"{ level: 1, next: { level: 2, next: { level: 3, next: [Object] } } }",
			`{
  level: 1,
  next: {
    level: 2,
    next: {
      level: 3,
      next: {
        level: 4,
        next: {
          level: 5,
          next: {
            level: 6,
            next: {
              level: 7,
              next: { level: 8, next: { level: 9, next: { level: 10 } } }
            }
          }
        }
      }
    }
  }
}`),
		logs("a very deep chain", `let v = {}; for (let i = 0; i < 100000; i++) v = { v }; console.dir(v, { depth: null }); console.log([[[[[[v]]]]]])`,
			deepChain(), "[ [ [ [Array] ] ] ]"),
		logs("an object with 100k keys", `const o = {}; for (let i = 0; i < 100000; i++) o["k" + i] = i; console.log(o)`, wideKeys(100000, "", "")),
		logs("objects with more than 100 keys, nested", `
const wide = (n) => { const o = {}; for (let i = 0; i < n; i++) o["k" + i] = i; return o };
const outer = wide(150); outer.k0 = wide(120);
console.log(outer);`, wideKeys(150, "", wideKeys(120, "  ", ""))),
		logs("a million-item array", `console.log(new Array(1e6).fill(7).map((_, i) => i))`, numbers(1e6)),
		logs("huge sparse arrays", `const a = []; a[1e6] = 1; console.log(a); console.log(new Array(2 ** 32 - 1))`,
			"[ ... 1000001 more items ]", "[ ... 4294967295 more items ]"),
		logs("a huge string is cut at 1 MiB", `console.log("y".repeat(3 * 1024 * 1024)); console.warn("y".repeat(1 << 20))`,
			strings.Repeat("y", cut)+" ... 2097152 more characters (console output is cut at 1 MiB a call)",
			"[warn] "+strings.Repeat("y", cut-7)+" ... 7 more characters (console output is cut at 1 MiB a call)"),
		// 100 x 100 strings of 10,000 shown characters would be 100 MB: the
		// formatting stops at the 1 MiB budget instead (the host refuses the
		// line, so only the cost shows).
		{Name: "console/a value with 100 MB of strings stays bounded", OutputLimit: 1, Source: `
console.log("first");
const s = "z".repeat(20000), row = Array.from({ length: 100 }, () => s), big = Array.from({ length: 100 }, () => row);
try { console.log(big) } catch (e) { return e.message }`,
			Want: `{"status":"completed","value":"code mode output limit exceeded","output":["text:first"]}`},
		logs("hostile conversions are never called", `
const hostile = { toString() { throw new Error("toString ran") }, valueOf() { for (;;); }, [Symbol.toPrimitive]() { throw new Error("toPrimitive ran") }, inspect() { throw new Error("inspect ran") }, toJSON() { throw new Error("toJSON ran") } };
console.log(hostile); console.log("%s", hostile);`,
			"{\n  toString: [Function: toString],\n  valueOf: [Function: valueOf],\n  inspect: [Function: inspect],\n  toJSON: [Function: toJSON],\n  [Symbol(Symbol.toPrimitive)]: [Function: [Symbol.toPrimitive]]\n}",
			"{\n  toString: [Function: toString],\n  valueOf: [Function: valueOf],\n  inspect: [Function: inspect],\n  toJSON: [Function: toJSON],\n  [Symbol(Symbol.toPrimitive)]: [Function: [Symbol.toPrimitive]]\n}"),
		logs("replaced built-ins are not used", `
const saved = { log: console.log };
const value = { a: [1, "x"], m: new Map([["k", 1]]), f: function f() {}, e: Object.assign(new Error("e"), { stack: "Error: e" }) };
Array.prototype.push = Array.prototype.join = Array.prototype.map = () => { throw new Error("array method ran") };
Array.prototype[Symbol.iterator] = function* () { throw new Error("iterator ran") };
Object.keys = Object.getOwnPropertyDescriptor = Object.getPrototypeOf = () => { throw new Error("Object method ran") };
JSON.stringify = () => "hacked";
String.prototype.slice = String.prototype.indexOf = String.prototype.repeat = String.prototype.charCodeAt = () => { throw new Error("string method ran") };
globalThis.String = () => "hacked";
Map.prototype.get = Map.prototype.set = Map.prototype.entries = () => { throw new Error("map method ran") };
Map.prototype[Symbol.iterator] = () => { throw new Error("map iterator ran") };
Function.prototype.toString = () => "hacked";
Reflect.apply = () => { throw new Error("apply ran") };
Object.defineProperty(Object.prototype, "get", { get() { throw new Error("descriptor read") }, configurable: true });
saved.log(value);
saved.log("%s %j", "s", { j: 1 });
console.count("c"); console.group("g"); console.info("in"); console.groupEnd();`,
			"{\n  a: [ 1, 'x' ],\n  m: Map(1) { 'k' => 1 },\n  f: [Function: f],\n  e: [Error: e]\n}", `s {"j":1}`, "c: 1", "g", "  [info] in"),
	}
}
