package source

import (
	"errors"
	"strings"
	"testing"
)

// TestReturnTail: what a JavaScript cell runs as. want "" means unchanged;
// checked says esbuild had to confirm the rewrite (the tokens alone did not
// prove it), so the cheap path is pinned down too.
func TestReturnTail(t *testing.T) {
	cases := []struct {
		code, want string
		checked    bool
	}{
		// Plain trailing expressions: rewritten from the tokens alone.
		{"const r = await f(); r.items.length", "const r = await f(); return (r.items.length)", false},
		{"1 + 1", "return (1 + 1)", false},
		{"const x = 2\nx", "const x = 2\nreturn (x)", false},
		{"await MCP.a.b({})", "return (await MCP.a.b({}))", false},
		{"await tools.callValue('x', { a: [1, { b: 2 }] })", "return (await tools.callValue('x', { a: [1, { b: 2 }] }))", false},
		{"const x = 1;\nx;", "const x = 1;\nreturn (x);", false},
		{"const x = 1; x // the answer", "const x = 1; return (x) // the answer", false},
		{"const x = 1; x /* c */ ;", "const x = 1; return (x) /* c */ ;", false},
		{"let x = 1\nx\n// end\n", "let x = 1\nreturn (x)\n// end\n", false},
		{"const r = await f()\nr.items\n  .filter(x => x.ok)\n  .map(x => x.id)", "const r = await f()\nreturn (r.items\n  .filter(x => x.ok)\n  .map(x => x.id))", false},
		{"const a = 1;\n`a ${a}\nb`", "const a = 1;\nreturn (`a ${a}\nb`)", false},
		{"const a = 1;\n`a ${`b ${a}`}`", "const a = 1;\nreturn (`a ${`b ${a}`}`)", false},
		{"const a = 1\n`a`", "", false}, // 1`a` is a tagged template: one statement, a declaration
		{"const s = 'x';\n/x/.test(s)", "const s = 'x';\nreturn (/x/.test(s))", false},
		{"({ a: 1, b: [2] })", "return (({ a: 1, b: [2] }))", false},
		{"(function () { return 1 })()", "return ((function () { return 1 })())", false},
		{"const a = 1;\n'done'", "const a = 1;\nreturn ('done')", false},
		{"a, b", "return (a, b)", false},
		{"[a, b] = [b, a]", "return ([a, b] = [b, a])", false},
		{"x = -1", "return (x = -1)", false},
		{"x=-1", "return (x=-1)", false},
		{"a &&!b", "return (a &&!b)", false},
		{"a ? b : c ? d : e", "return (a ? b : c ? d : e)", false},
		{"a ?? b", "return (a ?? b)", false},
		{"a === b", "return (a === b)", false},
		{"a >>>= 2", "return (a >>>= 2)", false},
		{"a in b", "return (a in b)", false},
		{"!x", "return (!x)", false},
		{"typeof x", "return (typeof x)", false},
		{"void 0", "return (void 0)", false},
		{"new Foo(1).bar", "return (new Foo(1).bar)", false},
		{"-x ** 2 + +y", "return (-x ** 2 + +y)", false}, // invalid (-x ** 2): fails as it did
		{"a?.b?.[0]?.(1)", "return (a?.b?.[0]?.(1))", false},
		{"x.#y", "return (x.#y)", false},
		{"(a) / 2", "return ((a) / 2)", false}, // the other reading of the / does not tokenize
		// A line break goes on with a call, an index or a template, not a new statement.
		{"const f = x => x\nf\n(1)", "const f = x => x\nreturn (f\n(1))", false},
		{"const a = [1]\na\n[0]", "const a = [1]\nreturn (a\n[0])", false},
		{"const t = x => x\nt\n`s`", "const t = x => x\nreturn (t\n`s`)", false},
		{"let a = 1\na\n++a", "let a = 1\na\nreturn (++a)", false},
		// Statements before the last one.
		{"if (a) { b() }\nc()", "if (a) { b() }\nreturn (c())", false},
		{"if (a) {} c()", "if (a) {} return (c())", false},
		{"if (a) b()\nelse c()\nd()", "if (a) b()\nelse c()\nreturn (d())", false},
		{"for (const x of xs) {}\nxs.length", "for (const x of xs) {}\nreturn (xs.length)", false},
		{"for await (const x of xs) {}\nxs.length", "for await (const x of xs) {}\nreturn (xs.length)", false},
		{"try { a() } catch { b() } finally { c() }\nd", "try { a() } catch { b() } finally { c() }\nreturn (d)", false},
		{"do { a() } while (b)\nc", "do { a() } while (b)\nc", false}, // the scanner does not end do-while at its )
		{"do { a() } while (b);\nc", "do { a() } while (b);\nreturn (c)", false},
		{"label: { break label }\nx", "label: { break label }\nreturn (x)", false},
		// Returns inside functions are not the cell's.
		{"function f() { return 1 }\nf()", "function f() { return 1 }\nreturn (f())", false},
		{"async function f() { return 1 }\nawait f()", "async function f() { return 1 }\nreturn (await f())", false},
		{"class A { m() { return 1 } }\nnew A().m()", "class A { m() { return 1 } }\nreturn (new A().m())", false},
		{"const o = { get x() { return 1 }, m() { return 2 } }; o.x", "const o = { get x() { return 1 }, m() { return 2 } }; return (o.x)", false},
		{"const o = { return: 1 }; o.return", "const o = { return: 1 }; return (o.return)", false},
		{"xs.map(x => { return x * 2 })", "return (xs.map(x => { return x * 2 }))", false},
		{"const f = function () { return 1 }\nf()", "const f = function () { return 1 }\nreturn (f())", false},
		// esbuild confirms these.
		{"x = { a: 1 }", "return (x = { a: 1 })", true},
		{"x = async () => 1", "return (x = async () => 1)", true}, // a cell that is one function is called: shape_test.go
		{"let i = 0\ni++\ni", "let i = 0\ni++\nreturn (i)", true},
		{"{}\n/re/.test(s)", "{}\nreturn (/re/.test(s))", true},
		{"const o = {}\no.x = function () {}\n(1)", "const o = {}\nreturn (o.x = function () {}\n(1))", true},
		{"xs.forEach(x => x)\nx => x", "xs.forEach(x => x)\nreturn (x => x)", true},
		{"o.f = class {}", "return (o.f = class {})", true},
		// Unchanged: a return of the cell's own.
		{"return 1", "", false},
		{"const a = 1\nreturn a", "", false},
		{"if (x) return 1\nfoo()", "", false},
		{"if (x) { return 1 }\nfoo()", "", false},
		{"switch (x) { case 1: return 5 }\nfoo()", "", false},
		{"for (const x of xs) { if (x) return x }\nnull", "", false},
		{"try { return 1 } finally { a() }\nfoo()", "", false},
		{"label: { return 1 }\nfoo()", "", false},
		{"x = 1\n{ if (a) return 2 }\nfoo()", "", false}, // the lexer takes that { for an object
		{"x = 1\n{ return (2) }\nfoo()", "", false},
		{"const o = { return() { return 1 } }; o.return()", "const o = { return() { return 1 } }; return (o.return())", false},
		{"const o = { async return() {}, get return() { return 1 } }; o.return", "const o = { async return() {}, get return() { return 1 } }; return (o.return)", false},
		{"let total = 0\nfor (const s of await Shipping.list()) total += s.tons\ntotal // tons in all", "let total = 0\nfor (const s of await Shipping.list()) total += s.tons\nreturn (total) // tons in all", false},
		// Unchanged: the last statement is not an expression statement.
		{"if (x) { y() }", "", false},
		{"if (x) y()\nelse z()", "", false},
		{"const a = 1", "", false},
		{"let a", "let a", false},
		{"var a = f()", "", false},
		{"for (;;) {}", "", false},
		{"while (x) x--", "", false},
		{"do x--; while (x)", "", false},
		{"{ a: 1 }", "", false},
		{"{ f() }", "", false},
		{"f()\n{}", "", true},
		{"function f() {}", "", false},
		{"async function f() {}", "", false},
		{"class A {}", "", false},
		{"try { a() } catch (e) { b() }", "", false},
		{"switch (x) {}", "", false},
		{"label: f()", "", false},
		{"foo: for (;;) break foo", "", false},
		{"throw new Error('x')", "", false},
		{"debugger", "", false},
		{";", "", false},
		{"f();;", "", false},
		{"f();\n;", "", false},
		{"'use strict'", "", false},
		{"const o = {}\no\n{}", "", false},
		// Unchanged: broken cells fail as they did.
		{"const a = 1; a +", "", true},
		{"foo(", "", false},
		{"const a = 1; a b", "", true},
		{"x <!-- y", "", true},
		{"x = function () {}\n(", "", false},
		{"f(); }", "", false},
		{"", "", false},
		{"// only a comment", "", false},
	}
	for _, c := range cases {
		before := tailCalls.Load()
		js, m, err := checkLocal(c.code, JavaScript, nil)
		want := c.want
		if want == "" {
			want = c.code
		}
		if err != nil || js != want {
			t.Errorf("checkLocal(%q) = %q, %v; want %q", c.code, js, err, want)
			continue
		}
		if (m != nil) != (js != c.code) {
			t.Errorf("checkLocal(%q): map %v for a rewrite %v", c.code, m != nil, js != c.code)
		}
		if checked := tailCalls.Load() != before; checked != c.checked {
			t.Errorf("checkLocal(%q): esbuild confirmed it: %v, want %v", c.code, checked, c.checked)
		}
	}
}

// TestReturnTailTypeScript: the rewrite is made in the TypeScript, so types
// around the expression go with it, and only a rewritten cell costs a
// second transform.
func TestReturnTailTypeScript(t *testing.T) {
	cases := []struct {
		code, want string // want "" means the transform of the code as it is
	}{
		{"const x: number = 1;\nx", "  const x = 1;\n  return x;\n"},
		{"const r = await f() as any\nr.items.length as number", "  const r = await f();\n  return r.items.length;\n"},
		{"function f(): number { return 1 }\nf()", "  function f() {\n    return 1;\n  }\n  return f();\n"},
		{"const o = { m(): number { return 1 } }\no.m()", "  const o = { m() {\n    return 1;\n  } };\n  return o.m();\n"},
		{"let x = <number>y\nx", "  let x = y;\n  return x;\n"},
		{"const a = 1\na satisfies number", "  const a = 1;\n  return a;\n"},
		{"x!", "  return x;\n"},
		{"enum E { A }\nE.A", "  let E;\n  ((E2) => {\n    E2[E2[\"A\"] = 0] = \"A\";\n  })(E || (E = {}));\n  return 0 /* A */;\n"},
		{"({ a: 1 }) as { a: number }", "  return { a: 1 };\n"},
		{"return 1 as number", ""},
		{"function f(): { a: number } { return { a: 1 } }\nf()", "  function f() {\n    return { a: 1 };\n  }\n  return f();\n"},
		{"type T = string", ""},
		{"const a = 1\ninterface A { a: string }", ""},
		{"const a = 1;\ndeclare const b: number", ""},
		{"const a = 1;\nfunction f(a: string): void;\nfunction f(a: any) {}", ""},
		{"const a: number = 1;\nif (a) { a }", ""},
	}
	for _, c := range cases {
		transforms := transformCalls.Load()
		js, m, err := checkLocal(c.code, TypeScript, nil)
		if err != nil || m == nil {
			t.Errorf("checkLocal(%q): %v, map %v", c.code, err, m)
			continue
		}
		if n := transformCalls.Load() - transforms; c.want != "" && n != 2 {
			t.Errorf("checkLocal(%q): %d transforms, want 2", c.code, n)
		}
		want := c.want
		if want == "" {
			want, _, _ = transformTypeScript(c.code, here)
		}
		if js != want {
			t.Errorf("checkLocal(%q) = %q; want %q", c.code, js, want)
		}
	}
	transforms := transformCalls.Load()
	if _, _, err := checkLocal("const x: number = 1;\nreturn x", TypeScript, nil); err != nil || transformCalls.Load()-transforms != 1 {
		t.Errorf("a cell that returns: %v, %d transforms", err, transformCalls.Load()-transforms)
	}
}

// TestReturnTailCheap: cells that return, or end in a declaration or a
// block, never reach esbuild for the rewrite, and plain trailing expressions
// do not either.
func TestReturnTailCheap(t *testing.T) {
	before := tailCalls.Load()
	for _, c := range []string{
		"return 1",
		"const r = await tools.callValue(\"x\", {});\nreturn r.items.length",
		"if (x) { return 1 }\nreturn 2",
		"for (const x of xs) { text(x) }",
		"const a = 1",
		"function f() {}",
		"const r = await tools.callValue(\"x\", {});\nr.items.length",
		"const r = await tools.callValue(\"x\", {})\nr.items.filter(i => i.ok).map(i => i.id)",
		"text('a'); json({ b: 1 }); 3",
	} {
		if _, _, err := checkLocal(c, JavaScript, nil); err != nil {
			t.Fatalf("%q: %v", c, err)
		}
	}
	if n := tailCalls.Load() - before; n != 0 {
		t.Fatalf("%d esbuild runs, want 0", n)
	}
}

// TestReturnTailMap: positions in the rewritten JavaScript map back to the
// user's lines and columns; inside the inserted text they name the
// expression's ends.
func TestReturnTailMap(t *testing.T) {
	type pos struct{ line, col int }
	cases := []struct {
		code          string
		lang          string
		find          string // in both the code and the JavaScript
		atOpen, atEnd pos    // where the inserted `return (` and `)` map to (JavaScript only)
	}{
		{"const r = f(); r.items.length", JavaScript, "length", pos{1, 16}, pos{1, 30}},
		{"const r = f();\nr.items.length", JavaScript, "items", pos{2, 1}, pos{2, 15}},
		{"const a = 1\na +\n  b.c(\n)", JavaScript, "c(", pos{2, 1}, pos{4, 2}},
		{"const r: any = f();\nr.items.length", TypeScript, "items", pos{}, pos{}},
		{"const r: any = f(); r.items.length as number", TypeScript, "length", pos{}, pos{}},
		{"const r: any = f();\nr.items\n  .map((i: any) => i.id)", TypeScript, "id", pos{}, pos{}},
	}
	for _, c := range cases {
		js, m, err := checkLocal(c.code, c.lang, nil)
		if err != nil || m == nil || !strings.Contains(js, "return") {
			t.Fatalf("%q: %q %v %v", c.code, js, m, err)
		}
		wantLine, wantCol := at(t, c.code, c.find)
		jsLine, jsCol := at(t, js, c.find)
		if l, col, ok := m.Position(jsLine, jsCol); !ok || l != wantLine || col != wantCol {
			t.Errorf("%q: %d:%d -> %d:%d %v, want %d:%d in\n%s", c.code, jsLine, jsCol, l, col, ok, wantLine, wantCol, js)
		}
		if l, col := m.End(); l != strings.Count(c.code, "\n")+1 || col != len(c.code)-strings.LastIndexByte(c.code, '\n') {
			t.Errorf("%q: end %d:%d", c.code, l, col)
		}
		if c.lang != JavaScript {
			continue
		}
		for i, p := range []pos{c.atOpen, c.atEnd} {
			text := []string{returnOpen, returnClose}[i]
			for k := range len(text) {
				jl, jc := at(t, js, "return (")
				if i == 1 {
					jl, jc = lastAt(js, ")")
				}
				if l, col, ok := m.Position(jl, jc+k); !ok || l != p.line || col != p.col {
					t.Errorf("%q: %q+%d at %d:%d -> %d:%d %v, want %d:%d", c.code, text, k, jl, jc+k, l, col, ok, p.line, p.col)
				}
			}
		}
		if _, _, ok := m.Position(strings.Count(js, "\n")+2, 1); ok {
			t.Errorf("%q: a line past the JavaScript is the user's", c.code)
		}
	}
}

// lastAt is the 1-based line and byte column of the last occurrence of s.
func lastAt(text, s string) (int, int) {
	i := strings.LastIndex(text, s)
	return strings.Count(text[:i], "\n") + 1, i - (strings.LastIndexByte(text[:i], '\n') + 1) + 1
}

func TestReturnedForm(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"  x;\n", "  return x;\n", true},
		{"  a;\n  result;\n", "  a;\n  return result;\n", true},
		{"  a;\n  returned;\n", "  a;\n  return returned;\n", true},
		{"  ({ a: 1 });\n", "  return { a: 1 };\n", true},
		{"  /* @__PURE__ */ (function() {\n  })();\n", "  return /* @__PURE__ */ (function() {\n  })();\n", true},
		{"  (function() {\n  })();\n", "  return function() {\n  }();\n", true},
		{"  async () => 1;\n", "  return (async () => 1);\n", true},
		{"  a(b);\n", "  a;\n  return b;\n", false},
		{"  x;\n", "  return y;\n", false},
		{"  x;\n  y;\n", "  return x;\n  y;\n", true}, // the prints alone allow it; findTail never asks
		{"  x;\n", "  xreturn ;\n", false},
		{"", "return ", true},
		{"  ({}).x;\n", "  return {}.x;\n", true},
		{"  (class {\n  }).x;\n", "  return class {\n  }.x;\n", true},
		{"  (x) => 1;\n", "  return ((x) => 1);\n", true},
		{"  () => {\n  };\n", "  return (() => {\n  });\n", true},
		// Other parentheses are not esbuild's to add or drop: they mean something.
		{"  (a, b).c;\n", "  return a, b.c;\n", false},
		{"  a, b.c;\n", "  return (a, b).c;\n", false},
		{"  (a);\n", "  return a;\n", false},
		{"  (a)(b);\n", "  return a(b);\n", false},
	}
	for _, c := range cases {
		if got := returnedForm(c.a, c.b); got != c.want {
			t.Errorf("returnedForm(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestReturnTailHostile sends cells of up to MaxSourceBytes that make the
// scanner and the check work hardest, with a trailing expression so the
// rewrite runs. They must come back, rewritten or not, as the cell would
// run; the test asserts no duration.
func TestReturnTailHostile(t *testing.T) {
	fill := func(prefix, piece, end string) string {
		return prefix + strings.Repeat(piece, (MaxSourceBytes-len(prefix)-len(end))/len(piece)) + end
	}
	const decl = "let a, b, c, x;\n"
	for name, code := range map[string]string{
		"many statements, plain tail":   fill(decl, "a = b\n", "a"),
		"many statements, checked tail": fill(decl, "a = b\n", "x = {}"),
		"ambiguous slashes":             fill(decl, "(a) / 2;\n", "a"),
		"ambiguous slash at the tail":   fill(decl, "a = b;\n", "{}\n/a/.test(b)"),
		"one long expression":           fill(decl+"x = ", "a + ", "a"),
		"one long checked expression":   fill(decl+"x = ", "a + ", "{}"),
		"one long chain":                fill(decl, "x"+strings.Repeat(".a(b)", 100)+";\n", "x"+strings.Repeat(".a(b)", 100)),
		"long template":                 fill(decl+"x = `", "${a}", "`"),
		"many functions with returns":   fill(decl, "f(function () { return 1 })\n", "x"),
		"many arrows at the top":        fill(decl+"x = ", "(() => a) + ", "a"),
		"many braces":                   fill(decl, "{}\n", "x"),
		"many conditionals":             fill(decl+"x = ", "(a ? b : c) + ", "a"),
		"many commas":                   fill(decl, "x = (a, a, a, a, a, a);\n", "(a, a)"),
		"many line breaks":              fill(decl+"x = a", "\n", ".b"),
		"deep, plain tail":              decl + strings.Repeat("(", MaxNesting/2) + "a" + strings.Repeat(")", MaxNesting/2),
		"deep, checked tail":            decl + strings.Repeat("[", MaxNesting/2) + "{}" + strings.Repeat("]", MaxNesting/2) + " = x",
		"long line comment":             fill(decl+"x // ", "a", ""),
		"unclosed at the end":           fill(decl, "a = b\n", "f("),
		"unclosed object of return()s":  fill(decl+"x = {", "return(1), ", ""),
		"methods named return":          fill(decl+"x = {", "return() {}, ", "}\nx"),
		"returns in misread blocks":     fill(decl+"x = 1\n", "{ return (1) }\n", "x"),
	} {
		if len(code) > MaxSourceBytes {
			t.Fatalf("%s: %d bytes", name, len(code))
		}
		langs := []string{JavaScript}
		if strings.HasPrefix(name, "many statements") || name == "ambiguous slashes" {
			langs = append(langs, TypeScript) // two transforms each: a few suffice
		}
		for _, lang := range langs {
			_, _, err := checkLocal(code, lang, nil)
			var e *Error
			if err != nil && (!errors.As(err, &e) || e.Reason != ReasonTypeScriptTransformFailed) {
				t.Errorf("%s as %s: %v", name, lang, err)
			}
		}
	}
}
