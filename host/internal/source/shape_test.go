package source

import (
	"context"
	"errors"
	"strings"
	"testing"
)

const callDefault = `;return await (typeof __cm_default === "function" ? __cm_default() : __cm_default);`

func callOf(name string) string {
	return ";return await (typeof " + name + ` === "function" ? ` + name + "() : " + name + ");"
}

// TestReshape: each module-shaped or one-function cell becomes the body
// that does what it meant, in the user's columns.
func TestReshape(t *testing.T) {
	cases := []struct{ name, code, want string }{
		{"export default named", "export default async function main() {\n  return 1\n}",
			"               async function main() {\n  return 1\n}" + callOf("main")},
		{"export default named, called by the cell", "export default async function main() { return 1 }\nawait main()",
			"               async function main() { return 1 }\nreturn (await main())"},
		{"export default value", "const a = 1\nexport default a + 1",
			"const a = 1\n;var __cm_default =                a + 1" + callDefault},
		{"export default on its own line", "export\ndefault () => 2",
			"var __cm_default =       \n        () => 2" + callDefault},
		{"export default class", "export default class A {}", "               class A {}" + callOf("A")},
		{"export declarations", "export const a = 1\nexport async function f() {}\nexport class C {}\na",
			"       const a = 1\n;      async function f() {}\n;      class C {}\nreturn (a)"},
		{"export {}", "export {};\nconst r = await f();\nr.length", "          \nconst r = await f();\nreturn (r.length)"},
		{"export list", "const n = 1\nexport { n }\nn", "const n = 1\n;           \nreturn (n)"},
		{"export as default", "function go() { return 1 }\nexport { go as default };",
			"function go() { return 1 }\n;                        " + callOf("go")},
		{"import type", "import type { A } from \"a\";\nconst x = 1\nx", "                           \nconst x = 1\nreturn (x)"},
		{"import of types only", "import { type A, type B } from \"a\"\nreturn 1", "                                  \nreturn 1"},
		{"uncalled main", "async function main() {\n  return 2\n}", "async function main() {\n  return 2\n}" + callOf("main")},
		{"exported main", "export async function main() { return 2 }", "       async function main() { return 2 }" + callOf("main")},
		{"main after a statement", "const a = 1;\nfunction main() { return a }", "const a = 1;\nfunction main() { return a }" + callOf("main")},
		{"main with its own return", "function main() { return 1 }\nreturn 3", "function main() { return 1 }\nreturn 3"},
		{"main as a method name only", "const o = { main: 1 }\nfunction main() {}", "const o = { main: 1 }\nfunction main() {}" + callOf("main")},
		{"main mentioned", "function main() {}\nconst f = main", "function main() {}\nconst f = main"},
		{"main as an expression", "const f = function main() {}", "const f = function main() {}"},
		{"one arrow", "async () => {\n  return 1\n}", "return await (async () => {\n  return 1\n})()"},
		{"one arrow and a semicolon", "async () => { return 1 };", "return await (async () => { return 1 })();"},
		{"arrow with a parameter", "x => x", "return await (x => x)()"},
		{"arrow with an expression body", "async () => await f()", "return await (async () => await f())()"},
		{"parenthesized arrow", "(async () => 1)", "return await ((async () => 1))()"},
		{"anonymous function", "async function () { return 1 }", "return await (async function () { return 1 })()"},
		{"parenthesized named function", "(function f() { return 1 })", "return await ((function f() { return 1 }))()"},
		{"arrow then more", "async () => 1\nf()", "async () => 1\nreturn (f())"},
		{"arrow with a comma", "async () => 1, 2", "return (async () => 1, 2)"},
		{"called already", "(async () => 1)()", "return ((async () => 1)())"},
		{"named function is a declaration", "function f() { return 1 }", "function f() { return 1 }"},
		{"export in an object key", "const o = { export: 1 }\no.export", "const o = { export: 1 }\nreturn (o.export)"},
		{"comments kept", "// the main\nexport default async function main() {\n  return 1 // one\n}\n// done",
			"// the main\n               async function main() {\n  return 1 // one\n}" + callOf("main") + "\n// done"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, _, err := checkLocal(c.code, JavaScript, nil)
			if err != nil || js != c.want {
				t.Fatalf("check(%q) =\n%q, %v; want\n%q", c.code, js, err, c.want)
			}
		})
	}
}

// TestReshapeRefuses: what reshaping leaves to the other checks.
func TestReshapeRefuses(t *testing.T) {
	cases := []struct{ name, code, lang string }{
		{"export *", `export * from "fs"`, ""},
		{"export * as", `export * as fs from "fs"`, ""},
		{"export list from", "export { readFile } from \"fs\"\nreadFile", ""},
		{"shell export", "export FOO=1", ""},
		{"shell export and a command", "export FOO=1 && make", ""},
		{"export {} then shell", "export {};\nls -la", ""},
		{"import of a value", "import { type A, b } from \"a\"", "typescript"},
		{"import type as require", "import type A = require(\"a\")", "typescript"},
		{"type import then a value import", "import type { A } from \"a\";\nimport fs from \"fs\"", "typescript"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, _, err := checkLocal(c.code, c.lang, nil)
			var e *Error
			if !errors.As(err, &e) || e.Reason != ReasonModuleAccessDenied && e.Reason != ReasonShellSource {
				t.Fatalf("check(%q) = %q, %v; want a refusal", c.code, js, err)
			}
		})
	}
}

// TestReshapeStaysHere: module-shaped and one-function cells need no parse.
func TestReshapeStaysHere(t *testing.T) {
	for _, c := range []string{
		"export default async function main() {\n  return await tools.x({})\n}",
		"export {};\nconst a = await tools.x({});\na.length",
		"async () => {\n  return 1\n}",
		"async function main() { return 1 }",
	} {
		if _, _, err := checkHere(c, JavaScript, nil); err != nil {
			t.Errorf("%q: %v", c, err)
		}
	}
}

// TestTypeScriptSentAsJavaScript: a JavaScript cell that parses only as
// TypeScript runs as TypeScript, and says so through its Map.
func TestTypeScriptSentAsJavaScript(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"const x: number = await f();\nx + 1", "  const x = await f();\n  return x + 1;\n"},
		{"interface A { a: string }\nconst v = { a: \"x\" } as A;\nreturn v.a", "  const v = { a: \"x\" };\n  return v.a;\n"},
		{"type T = { n: number };\nreturn 1", "  return 1;\n"},
		{"enum E { A }\nreturn E.A", "  let E;\n  ((E2) => {\n    E2[E2[\"A\"] = 0] = \"A\";\n  })(E || (E = {}));\n  return 0 /* A */;\n"},
		{"return xs.map((x: any) => x.id)", "  return xs.map((x) => x.id);\n"},
		{"return f(a, b?: 1)", ""}, // neither: TypeScript's diagnostics, below
		{"return el!.value", "  return el.value;\n"},
		{"function f(a): string { return a }\nf(1)", "  function f(a) {\n    return a;\n  }\n  return f(1);\n"},
		{"function id<T>(a) { return a }\nid(1)", "  function id(a) {\n    return a;\n  }\n  return id(1);\n"},
		{"import type { A } from \"a\";\nconst a: A = 1;\na", "  const a = 1;\n  return a;\n"},
	} {
		js, m, err := checkLocal(c.code, JavaScript, nil)
		if c.want == "" {
			if err == nil && m.TypeScript() {
				t.Errorf("%q ran as TypeScript: %q", c.code, js)
			}
			continue
		}
		if err != nil || js != c.want || !m.TypeScript() {
			t.Errorf("check(%q) = %q, %v, TypeScript %v; want %q", c.code, js, err, m.TypeScript(), c.want)
		}
	}
	// Where TypeScript is disabled, the error names the language.
	_, _, err := checkLocal("const x: number = 1;\nx", JavaScript, []string{JavaScript})
	var e *Error
	if !errors.As(err, &e) || e.Reason != ReasonUnsupportedLanguage || !strings.Contains(e.Message, `language "typescript"`) {
		t.Fatalf("disabled: %v", err)
	}
	// Neither JavaScript nor TypeScript: TypeScript's diagnostics, named.
	_, _, err = checkLocal("const x: number = ;", JavaScript, nil)
	if !errors.As(err, &e) || e.Reason != ReasonTypeScriptTransformFailed || !strings.Contains(e.Message, `(language "typescript")`) ||
		!strings.Contains(e.Message, "(line 1, column 19)") {
		t.Fatalf("neither: %v", err)
	}
	// Through the parser process the Map still says TypeScript.
	js, m, err := Check(context.Background(), "", "const x: number = 1;\nx", JavaScript, nil)
	if err != nil || !m.TypeScript() || !strings.Contains(js, "return x") {
		t.Fatalf("through the parser: %q, %v, %v", js, m.TypeScript(), err)
	}
}

// TestTypeScriptHintStaysQuiet: JavaScript that only looks like
// TypeScript's forms never pays for a parse.
func TestTypeScriptHintStaysQuiet(t *testing.T) {
	for _, c := range []string{
		"return a ? f(x) : y",
		"return f(a ? b : c, d ? e : g)",
		"const o = { a: 1, b: (x) => ({ c: x }) }\no",
		"switch (x) { case (1): return 1 }",
		"return a !== b && !c",
		"let type = 1; type += 1; type",
		"const as = 1; as",
		"function f(a) { return a ? { b: 1 } : null }\nf(1)",
		"const interface_ = 1\ninterface_",
		"x = y\n!z",
	} {
		if typeScriptHint(lex(c).toks) {
			t.Errorf("%q reads as TypeScript", c)
		}
		if _, _, err := checkHere(c, JavaScript, nil); err == errNeedParser {
			t.Errorf("%q needed the parser", c)
		}
	}
}

// TestReshapedMap: positions in reshaped cells are the user's, and what
// was inserted maps to where it was inserted.
func TestReshapedMap(t *testing.T) {
	code := "const a = 1\nexport default () => {\n  throw new Error(\"x\")\n}"
	js, m, err := checkLocal(code, JavaScript, nil)
	if err != nil || m == nil {
		t.Fatalf("%q, %v", js, err)
	}
	lines := strings.Split(js, "\n")
	col := strings.Index(lines[2], "Error") + 1
	if l, c, ok := m.Position(3, col); l != 3 || c != 13 || !ok {
		t.Fatalf("throw at %d:%d %v", l, c, ok)
	}
	// In `var __cm_default = `: the export's column.
	if l, c, _ := m.Position(2, 6); l != 2 || c != 1 {
		t.Fatalf("inserted var at %d:%d", l, c)
	}
	// In the appended call: the end of the user's code.
	if l, c, _ := m.Position(4, len(lines[3])); l != 4 || c != 2 {
		t.Fatalf("appended call at %d:%d", l, c)
	}
}

// FuzzReshape: on any input reshape never panics, keeps every line break
// where it was, and its Map leads every position of the rewrite back into
// the user's code.
func FuzzReshape(f *testing.F) {
	for _, s := range []string{"export default async function main() {}", "export {}\nx", "export { a as default }",
		"import type { A } from 'a'", "async () => {}", "(x => x)", "function main() {}", "export default 1",
		"export\ndefault 2", "export const a = 1\u2028a", "export /* é */ default 3", "a\nexport {}\n(b)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if len(code) > 4096 {
			return
		}
		s, err := reshape(code, lex(code))
		if err != nil || s == nil {
			return
		}
		if strings.Count(s.code, "\n") != strings.Count(code, "\n") {
			t.Fatalf("lines moved: %q -> %q", code, s.code)
		}
		m := insertedMap(s.code, s.ins, code)
		lines := strings.Split(code, "\n")
		for i, l := range strings.Split(s.code, "\n") {
			for col := 1; col <= len(l)+1; col++ {
				ul, uc, ok := m.Position(i+1, col)
				if !ok || ul != i+1 || uc < 1 || uc > len(lines[i])+1 {
					t.Fatalf("%d:%d -> %d:%d %v in %q", i+1, col, ul, uc, ok, s.code)
				}
			}
		}
	})
}
