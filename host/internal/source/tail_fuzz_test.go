package source

import (
	"errors"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/seed11a79d2d/codemode/abi"
)

// tailSeeds are cells whose last statement is hard to find from tokens:
// automatic semicolons and where they do not go, braces of every kind,
// slashes, templates, labels, returns in and out of functions.
var tailSeeds = []string{
	"const r = await f(); r.items.length", "1 + 1", "a\nb", "a\n(b)", "a\n[b]", "a\n`t`", "a\n++b", "a++\nb",
	"a\n!b", "a\n.b", "a\n?.b", "a =\nb", "x = 1\n/re/.test(s)", "{}\n/re/.test(s)", "(a) / 2", "(a)\n/b/g.exec(c)",
	"if (a) {} b", "if (a) b\nelse c\nd", "do {} while (a)\nb", "do a; while (b)\nc", "for (;;) break\nx",
	"x = function () {}\n(1)", "x = class extends B\n{}\n(y)", "function f()\n{}\n(1)", "class A\n{}\n(1)",
	"x = () => {}\n(1)", "x = {}\n(1)", "label: x", "a: b: c", "let\nx = 1\nx", "async\nfunction f() {}\nf()",
	"async\nx => x", "yield\nx", "await\nx", "return\nx", "break\nx", "x = a ? b\n: c", "`a${b}`\n`c`",
	"`a${`b${c}`}`\nd", "x = `a${{ b: 1 }.b}`\nx", "({ a: 1 })", "({}).x", "(function () {})()", "async () => 1",
	"'use strict'", "'a'\n'b'", "x;;", ";x", "x // c", "x /* c */ ;", "x <!-- c", "x\n--> c", "a\n-->b",
	"const o = { return: 1 }; o.return", "xs.map(x => { return x })", "switch (a) { case 1: return 2 }\nb",
	"if (a) return\nb", "try {} catch {}\nx", "try {} finally {}\n(x)", "with (a) b\nc", "a = b\n(c || d).e()",
	"a = b;\n[c, d] = [d, c]", "x = y\n+z", "x = y\n++z", "i++\n+j", "a.b\n(c)", "new\nFoo()", "typeof\nx",
	"x\ninstanceof y", "x\nin y", "-x ** 2", "a?.b\n`t`", "#x in o", "x = -1", "x=-1", "a &&!b", "a ?? b ?? c",
	"a = b = c", "a, b", "{ a: 1 }", "x = {\n}\n[0]", "f()\n{}", "f() {}", "x = a\n{}", "debugger\nx",
	"if (a) function f() {}\nx", "l: function f() {}\nx", "x = y\n/* c */ (z)", "x\n/*\n*/ y", "a\u2028b", "a\rb",
}

// FuzzReturnTail checks the trailing-expression rewrite on any input. Check
// never panics and fails only with invalid_input. A rewrite is the cell with
// `return (` and `)` put around its last statement's expression, and its Map
// leads every position back inside the cell. When the tokens alone decided
// (no esbuild run), esbuild must agree: either the cell does not parse (and
// its rewrite fails too), or the rewrite prints as the cell with a return.
func FuzzReturnTail(f *testing.F) {
	for _, s := range tailSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if len(code) > 4096 {
			return // the properties do not depend on size; small inputs run faster
		}
		js, _, err := checkLocal(code, JavaScript, nil)
		if err != nil && !errors.Is(err, abi.CodeInvalidInput) {
			t.Fatalf("untyped error %v", err)
		}
		if checkBounds(code, false) != nil {
			return
		}
		denied, lx := moduleAccess(code)
		if denied || !lx.ok {
			return
		}
		if s, _ := reshape(code, lex(code)); s != nil || typeScriptHint(lx.toks) {
			return // reshaped or read as TypeScript first: FuzzReshape
		}
		tl, ok := findTail(code, lx.toks, scanTop(lx.toks, true))
		if !ok {
			if err == nil && js != code {
				t.Fatalf("rewritten without a tail: %q", js)
			}
			return
		}
		if tl.start < 0 || tl.start >= tl.end || tl.end > len(code) {
			t.Fatalf("tail %d..%d of %d bytes", tl.start, tl.end, len(code))
		}
		cand, ins := tl.apply(code)
		if cand != code[:tl.start]+returnOpen+code[tl.start:tl.end]+returnClose+code[tl.end:] ||
			strings.Count(cand, "\n") != strings.Count(code, "\n") {
			t.Fatalf("rewrite %q of %q", cand, code)
		}
		m := insertedMap(cand, ins, code)
		lines := strings.Split(code, "\n")
		for i, l := range strings.Split(cand, "\n") {
			for col := 1; col <= len(l)+1; col++ {
				ul, uc, ok := m.Position(i+1, col)
				if !ok || ul != i+1 || uc < 1 || uc > len(lines[i])+1 {
					t.Fatalf("%d:%d -> %d:%d %v in %q", i+1, col, ul, uc, ok, cand)
				}
			}
		}
		if tl.sure && lx.sure && parses(code, false, here) && !agrees(code, cand) {
			t.Fatalf("the tokens accepted a rewrite esbuild refutes: %q -> %q", code, cand)
		}
	})
}

// agrees is the fuzz target's oracle: returnsTail, or, since esbuild drops
// an expression statement without effects (`-0;`) and folds constants
// (`return "a" + "b"` prints "ab"), the cell prints as the rewrite without
// its last line, which is the return.
func agrees(code, cand string) bool {
	if returnsTail(code, cand, here) {
		return true
	}
	print := func(s string) (string, bool) {
		r := api.Transform(wrapOpen+s+wrapClose, api.TransformOptions{Loader: api.LoaderJS, LogLevel: api.LogLevelSilent})
		return string(r.Code), len(r.Errors) == 0
	}
	a, ok1 := print(code)
	b, ok2 := print(cand)
	const end = "});\n"
	if !ok1 || !ok2 || !strings.HasSuffix(a, end) || !strings.HasSuffix(b, end) {
		return false
	}
	a, b = a[:len(a)-len(end)], b[:len(b)-len(end)]
	rest, ok := strings.CutPrefix(b, a)
	return ok && strings.HasPrefix(rest, "  return ") && !strings.Contains(strings.TrimSuffix(rest, "\n"), ";\n  ")
}

// TestTailSeedsAgreeWithEsbuild runs FuzzReturnTail's soundness property on
// the seeds in the ordinary test run: wherever the tokens decide alone,
// esbuild agrees.
func TestTailSeedsAgreeWithEsbuild(t *testing.T) {
	for _, code := range tailSeeds {
		_, lx := moduleAccess(code)
		if !lx.ok {
			continue
		}
		tl, ok := findTail(code, lx.toks, scanTop(lx.toks, true))
		if !ok || !tl.sure || !lx.sure || !parses(code, false, here) {
			continue
		}
		if cand, _ := tl.apply(code); !agrees(code, cand) {
			t.Errorf("the tokens accepted a rewrite esbuild refutes: %q -> %q", code, cand)
		}
	}
}
