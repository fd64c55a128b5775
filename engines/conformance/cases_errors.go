package conformance

// errorCases cover error reporting: name, message and the line in the
// user's source, thrown non-errors, and rejections that do or do not fail
// the cell.
func errorCases() []Case {
	return []Case{
		fails("error/name message and line", "const a = 1;\nconst b = 2;\nthrow new RangeError(\"third\")",
			`{"kind":"guest-exception","name":"RangeError","message":"third","line":3}`),
		fails("error/line of the throw in a nested function", "function f() {\n  throw new Error(\"deep\")\n}\nf()",
			`{"kind":"guest-exception","name":"Error","message":"deep","line":2}`),
		fails("error/line after await", "await null;\n\nthrow new Error(\"l3\")",
			`{"kind":"guest-exception","name":"Error","message":"l3","line":3}`),
		fails("error/line on the first line", `throw new Error("first")`,
			`{"kind":"guest-exception","name":"Error","message":"first","line":1}`),
		fails("error/type error from the runtime", "const o = null;\nreturn o.x",
			`{"kind":"guest-exception","name":"TypeError","message":"cannot read property 'x' of null","line":2}`),
		fails("error/reference error", "\nreturn notDefined",
			`{"kind":"guest-exception","name":"ReferenceError","message":"notDefined is not defined","line":2}`),
		fails("error/syntax error", `return (`, `{"kind":"guest-exception","name":"SyntaxError","message":"*"}`),
		fails("error/custom name", `throw Object.assign(new Error("m"), { name: "Custom" })`,
			`{"kind":"guest-exception","name":"Custom","message":"m","line":1}`),
		fails("error/renamed prototype", `Error.prototype.name = "Renamed"; throw new Error("m")`,
			`{"kind":"guest-exception","name":"Renamed","message":"m","line":1}`),
		fails("error/multi-line message", `throw new Error("line1\nline2")`,
			`{"kind":"guest-exception","name":"Error","message":"line1\nline2","line":1}`),
		fails("error/aggregate error", `throw new AggregateError([new Error("a")], "all failed")`,
			`{"kind":"guest-exception","name":"AggregateError","message":"all failed","line":1}`),
		fails("error/finally throw wins", `try { throw new Error("a") } finally { throw new Error("b") }`,
			`{"kind":"guest-exception","name":"Error","message":"b","line":1}`),
		fails("error/throw in promise executor", `await new Promise(() => { throw new TypeError("exec") })`,
			`{"kind":"guest-exception","name":"TypeError","message":"exec","line":1}`),
		fails("error/rejected cell promise", `await Promise.reject(new RangeError("no"))`,
			`{"kind":"guest-exception","name":"RangeError","message":"no","line":1}`),

		// Thrown non-errors.
		fails("throw/string", `throw "plain"`, `{"kind":"guest-exception","message":"plain"}`),
		fails("throw/number", `throw 42`, `{"kind":"guest-exception","message":"42"}`),
		fails("throw/null", `throw null`, `{"kind":"guest-exception","message":"null"}`),
		fails("throw/undefined", `throw undefined`, `{"kind":"guest-exception","message":"null"}`),
		fails("throw/object", `throw { code: 1 }`, `{"kind":"guest-exception","message":"{\"code\":1}"}`),
		fails("throw/array", `throw [1, "a"]`, `{"kind":"guest-exception","message":"[1,\"a\"]"}`),
		fails("throw/symbol", `throw Symbol("x")`, `{"kind":"guest-exception","message":"\"Symbol(x)\""}`),
		fails("throw/function", `throw function f() {}`, `{"kind":"guest-exception","message":"\"function f() {}\""}`),
		fails("throw/error-like object", `throw { name: "N", message: "m" }`, `{"kind":"guest-exception","name":"N","message":"m"}`),
		fails("throw/message getter throws", `throw { name: "X", get message() { throw 1 } }`, `{"kind":"guest-exception","name":"X"}`),
		fails("throw/rejection with a number", `await Promise.reject(42)`, `{"kind":"guest-exception","message":"42"}`),
		fails("throw/cyclic object", `const o = {}; o.o = o; throw o`, `{"kind":"guest-exception","message":"\"[object Object]\""}`),

		// Rejections that do not fail the cell.
		ok("rejection/unhandled side rejection is ignored", `Promise.reject(new Error("ignored")); return "done"`, `"done"`),
		ok("rejection/late unhandled rejection is ignored", `(async () => { await null; throw new Error("late") })(); return 1`, `1`),
		ok("rejection/caught by guest", `const p = Promise.reject(new Error("x")); try { await p } catch (e) { return "caught " + e.message }`, `"caught x"`),
		ok("rejection/handled later", `const p = Promise.reject(new Error("later")); await null; return await p.catch(e => e.message)`, `"later"`),
	}
}
