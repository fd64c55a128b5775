package host

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var stackPosition = regexp.MustCompile(`cell\.js:\d+:\d+`)

// execLang runs src as a cell in language lang.
func execLang(run *Run, lang, src string) Result {
	b, _ := json.Marshal(map[string]string{"code": src, "language": lang})
	return run.Exec(context.Background(), "call_1", b)
}

// checkPositions wants a failed result whose error names exactly the cell.js
// positions want, in order, and no frame outside the user's code.
func checkPositions(t *testing.T, r Result, want ...string) {
	t.Helper()
	if r.Status != StatusFailed {
		t.Fatalf("not failed: %+v", r)
	}
	if got := stackPosition.FindAllString(r.Error, -1); !slices.Equal(got, want) {
		t.Fatalf("positions %q, want %q in:\n%s", got, want, r.Error)
	}
	if strings.Contains(r.Error, "<eval>") {
		t.Fatalf("the wrapper's frame is shown:\n%s", r.Error)
	}
}

// Line 1 of the engine's source starts with the exec's setup call; its
// columns are the user's all the same.
func TestErrorPositionsJavaScript(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	cases := []struct {
		name, src string
		want      []string
	}{
		{"line 1", `throw new Error("x")`, []string{"cell.js:1:11"}},
		{"line 1 after UTF-8, in bytes", `"é"; throw new Error("x")`, []string{"cell.js:1:17"}},
		{"line 3", "let a = 1;\n\n  throw new Error(\"x\")", []string{"cell.js:3:13"}},
		// QuickJS gives column 1 to the return here, with or without a prefix.
		{"nested frames", "function f() { return null.x }\nf()", []string{"cell.js:1:1", "cell.js:2:1"}},
		// 1:4, where line 2 gives 2:5: QuickJS puts calls on the source's
		// first line one column early, with or without a prefix.
		{"through a builtin", `[1].map((x) => { throw new Error("m") })`, []string{"cell.js:1:28", "cell.js:1:4"}},
		{"syntax error on line 1", `let x = ;`, []string{"cell.js:1:9"}},
		{"syntax error at the end", "let a = 1;\nif (a) {\n  foo(", []string{"cell.js:3:7"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkPositions(t, exec(t, run, c.src), c.want...) })
	}
}

// TypeScript is reprinted by esbuild; its source map leads back to the lines
// and columns the user wrote.
func TestErrorPositionsTypeScript(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	src := "interface A {\n  a: string\n}\ntype B = A | number;\n\nconst x: B = 1;\nthrow new Error(\"line7\");\n"
	checkPositions(t, execLang(run, "typescript", src), "cell.js:7:11")

	// Non-ASCII text before the frames: source maps count UTF-16 units, the
	// engine and the result count bytes.
	// QuickJS puts the throw at the argument s.
	src = "const s: string = \"é😀\"; function f(n: number): never { throw new Error(s) }\n\n  f(1 as number);"
	checkPositions(t, execLang(run, "typescript", src), "cell.js:1:"+strconv.Itoa(strings.Index(src, "s) }")+1), "cell.js:3:3")

	// Decorators make esbuild put helpers above the code.
	src = "function dec(c: any) { return c }\n@dec class C {}\ntype T = string;\nthrow new Error(\"line4\" as T);"
	checkPositions(t, execLang(run, "typescript", src), "cell.js:4:11")
}

// A run parked by wait keeps its positions: the failure after the resume is
// still in the user's lines, for JavaScript as for TypeScript.
func TestErrorPositionsAfterWait(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	for lang, src := range map[string]string{
		"javascript": "await yield_control(\"r\");\n\n\nthrow new Error(\"after\")",
		"typescript": "type T = string;\nawait yield_control(\"r\" as T);\ninterface I {}\nthrow new Error(\"after\")",
	} {
		r := execLang(run, lang, src)
		if r.Status != StatusWaiting {
			t.Fatalf("%s: %+v", lang, r)
		}
		checkPositions(t, run.Wait(context.Background(), waitArgs(r.RunID)), "cell.js:4:11")
	}
}

// rewrite without an engine: frames in the host's code go, bare positions
// there move to the user's code, line-1 columns in the prefix become 1, text
// without positions is left alone.
func TestPositionsRewrite(t *testing.T) {
	var p positions
	src := p.prefixed("__cm_setup({});", "a();\nb();")
	if !strings.HasSuffix(src, "a();\nb();") || p.prefix != wrapHead+len("__cm_setup({});") {
		t.Fatalf("%q %d", src, p.prefix)
	}
	col := func(c int) string { return strconv.Itoa(p.prefix + c) }
	in := "Error: see cell.js:1:" + col(3) + "\n" +
		"    at f (cell.js:1:" + col(1) + ")\n" +
		"    at __cm_setup (cell.js:1:4)\n" +
		"    at g (cell.js:2:2)\n" +
		"    at <eval> (cell.js:3:1)\n" +
		"    at cell.js:3:1\n" +
		"    at h (mycell.js:1:1)\n"
	want := "Error: see cell.js:1:3\n" +
		"    at f (cell.js:1:1)\n" +
		"    at __cm_setup (cell.js:1:1)\n" +
		"    at g (cell.js:2:2)\n" +
		"    at cell.js:2:5\n" +
		"    at h (mycell.js:1:1)\n"
	if got := p.rewrite(in); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := p.rewrite("no positions"); got != "no positions" {
		t.Fatal(got)
	}
}
