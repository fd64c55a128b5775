package source

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
)

// shape is a way to nest n levels: open n times, mid, close n times, after
// a prefix that makes the JavaScript a shell candidate where it can (so that
// without the bound the shell check would hand it to esbuild).
type shape struct {
	name              string
	ts                bool // TypeScript syntax
	prefix, open, mid string
	close             string
	brackets          bool // nests brackets, so the bracket message applies
}

func (s shape) code(n int) string {
	return s.prefix + strings.Repeat(s.open, n) + s.mid + strings.Repeat(s.close, n)
}

// shapes are the constructs that make esbuild recurse, one level each;
// measure_test.go finds where each overflows esbuild's stack.
var shapes = []shape{
	{name: "brackets", prefix: "x;\nreturn ", open: "[", close: "]", brackets: true},
	{name: "parens", prefix: "x;\nreturn ", open: "(", mid: "x", close: ")", brackets: true},
	{name: "objects", prefix: "x;\nreturn ", open: "{a:", mid: "1", close: "}", brackets: true},
	{name: "blocks", prefix: "x;\n", open: "{", close: "}", brackets: true},
	{name: "arrow blocks", prefix: "x;\nreturn ", open: "()=>{", close: "}", brackets: true},
	{name: "functions", prefix: "x;\n", open: "function f(){", close: "}", brackets: true},
	{name: "templates", prefix: "x;\nreturn ", open: "`${", mid: "x", close: "}`", brackets: true},
	{name: "calls in args", prefix: "x;\nreturn ", open: "f(", mid: "x", close: ")", brackets: true},
	{name: "spread", prefix: "x;\nreturn ", open: "[...", mid: "x", close: "]"},
	{name: "destructuring", prefix: "x;\nlet ", open: "[", mid: "x", close: "]", brackets: true},
	{name: "classes", prefix: "x;\nreturn ", open: "class{m(){return ", mid: "1", close: "}}", brackets: true},
	{name: "arrows", prefix: "x;\nreturn ", open: "x=>", mid: "x"},
	{name: "not", prefix: "x;\nreturn ", open: "!", mid: "x"},
	{name: "minus", prefix: "x;\nreturn ", open: "- ", mid: "x"},
	{name: "minus parens", prefix: "x;\nreturn ", open: "-(", mid: "x", close: ")"},
	{name: "typeof", prefix: "x;\nreturn ", open: "typeof ", mid: "x"},
	{name: "await", prefix: "x;\nreturn ", open: "await ", mid: "x"},
	{name: "new", prefix: "x;\nreturn ", open: "new ", mid: "x"},
	{name: "class heritage", prefix: "x;\nreturn ", open: "class extends ", mid: "X", close: " {}"},
	{name: "exponent", prefix: "x;\nreturn ", open: "a**", mid: "a"},
	{name: "assignment", prefix: "x;\n", open: "a=", mid: "1"},
	{name: "conditional chain", prefix: "x;\nreturn ", open: "a?b:", mid: "c"},
	{name: "nested conditional", prefix: "x;\nreturn ", open: "a?", mid: "b", close: ":c"},
	{name: "if", prefix: "x;\n", open: "if(a)", mid: "x;"},
	{name: "else if", prefix: "x;\nif(a)x;", open: "else if(a)x;"},
	{name: "commas", prefix: "x;\na", open: ",a"},
	{name: "commas in parens", prefix: "x;\nreturn (a", open: ",a", mid: ")"},
	{name: "while", prefix: "x;\n", open: "while(a)", mid: "x;"},
	{name: "labels", prefix: "x;\n", open: "l:", mid: "x;"},
	{name: "members", prefix: "x;\nreturn a", open: ".b"},
	{name: "optional members", prefix: "x;\nreturn a", open: "?.b"},
	{name: "indexes", prefix: "x;\nreturn a", open: "[0]"},
	{name: "optional indexes", prefix: "x;\nreturn a", open: "?.[0]"},
	{name: "optional calls", prefix: "x;\nreturn a", open: "?.()"},
	{name: "private members", prefix: "x;\nclass A { #a; m() { return this", open: ".#a", mid: " } }"},
	{name: "calls", prefix: "x;\nreturn a", open: "()"},
	{name: "tagged templates", prefix: "x;\nreturn a", open: "``"},
	{name: "args under a chain", prefix: "x;\n", open: "x(", mid: "y", close: ").a.b", brackets: true},
	{name: "ts brackets", ts: true, prefix: "x;\nreturn ", open: "[", close: "]", brackets: true},
	{name: "ts arrows", ts: true, prefix: "x;\nreturn ", open: "x=>", mid: "x"},
	{name: "ts generics", ts: true, prefix: "let x: ", open: "Array<", mid: "number", close: ">"},
	{name: "ts generics with commas", ts: true, prefix: "let x: ", open: "M<a, ", mid: "number", close: ">"},
	{name: "ts object types", ts: true, prefix: "let x: ", open: "{a:", mid: "number", close: "}"},
	{name: "ts function types", ts: true, prefix: "let x: ", open: "()=>", mid: "number"},
	{name: "ts array types", ts: true, prefix: "let x: number", open: "[]"},
	{name: "ts conditional types", ts: true, prefix: "type T = ", open: "A extends B ? C : ", mid: "D"},
	{name: "ts keyof", ts: true, prefix: "let x: ", open: "keyof ", mid: "a"},
	{name: "ts non-null", ts: true, prefix: "x;\nreturn x", open: "!"},
	{name: "ts namespaces", ts: true, open: "namespace a{", close: "}", brackets: true},
}

func language(ts bool) string {
	if ts {
		return TypeScript
	}
	return JavaScript
}

// wantBound checks that err is the bound's refusal with message msg and that
// esbuild never ran.
func wantBound(t *testing.T, err error, msg string, parses, transforms int64) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Reason != ReasonSourceTooDeep && e.Reason != ReasonSourceTooLarge || e.Message != msg {
		t.Fatalf("err = %v, want %q", err, msg)
	}
	if !errors.Is(err, abi.CodeInvalidInput) {
		t.Fatalf("%v is not invalid_input", err)
	}
	if parseCalls.Load() != parses || transformCalls.Load() != transforms {
		t.Fatal("esbuild ran on a refused cell")
	}
}

// TestBoundRefusesDeepCells sends each shape 200,000 levels deep, the
// 400 KB cell of brackets that used to kill the process among them, as
// JavaScript and as TypeScript.
func TestBoundRefusesDeepCells(t *testing.T) {
	for _, s := range shapes {
		langs := []bool{false, true}
		if s.ts {
			langs = []bool{true}
		}
		for _, ts := range langs {
			t.Run(s.name+" "+language(ts), func(t *testing.T) {
				msg := MsgNestingTooDeep
				if s.brackets {
					msg = MsgBracketsTooDeep
				}
				parses, transforms := parseCalls.Load(), transformCalls.Load()
				_, _, err := checkLocal(s.code(200_000), language(ts), nil)
				wantBound(t, err, msg, parses, transforms)
			})
		}
	}
}

// TestBoundEdge: MaxNesting levels of brackets pass, one more does not.
func TestBoundEdge(t *testing.T) {
	at := "return " + strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting)
	if _, _, err := checkLocal(at, JavaScript, nil); err != nil {
		t.Fatalf("%d levels: %v", MaxNesting, err)
	}
	over := "return " + strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1)
	parses, transforms := parseCalls.Load(), transformCalls.Load()
	_, _, err := checkLocal(over, TypeScript, nil)
	wantBound(t, err, MsgBracketsTooDeep, parses, transforms)
}

// TestBoundAcceptsDeepishCode: real code nests far less, but 200 levels of
// each common kind still pass, with the shell check's and the transform's
// esbuild runs behind them.
func TestBoundAcceptsDeepishCode(t *testing.T) {
	r := strings.Repeat
	cells := map[string]string{
		"brackets":       "return " + r("[", 200) + r("]", 200),
		"objects":        "return " + r("{ a: 1, b: ", 200) + "2" + r(" }", 200),
		"callbacks":      r("f(function () {\n", 200) + r("});\n", 200),
		"arrow callback": r("f(() => {\n", 200) + r("});\n", 200),
		"promise chain":  r("p.then(x => {\n", 200) + r("});\n", 200),
		"ifs":            r("if (a) {\n", 200) + r("}\n", 200),
		"else ifs":       "if (a) x();\n" + r("else if (a) x();\n", 200),
		"conditionals":   "return " + r("a ? b : ", 200) + "c",
		"member chain":   "return a" + r(".b()", 200),
		"arrows":         "return " + r("x => ", 200) + "x",
		"templates":      "return " + r("`${", 200) + "x" + r("}`", 200),
		"long flat cell": r("a = (b + c) / 2; if (a < b) { x = y ? z : w; }\n", 5000),
		"no semicolons":  r("a = f(b)\nc = a.d.e\nc = c + 1\n", 5000),
		"long chains":    "return a" + r(" + b - c * d / e % f && g || h", 2000),
		"big literal":    "return [" + r("{ a: 1, b: [1, 2, 3], c: { d: 'e' } },\n", 5000) + "]",
		"long calls":     "f(a" + r(", a", 5000) + ");\n",
		"big enum":       "enum F {" + enumMembers(2000) + " }",
	}
	for name, code := range cells {
		for _, lang := range []string{JavaScript, TypeScript} {
			if _, _, err := checkLocal(code, lang, nil); err != nil {
				t.Errorf("%s as %s: %v", name, lang, err)
			}
		}
	}
}

// TestBoundSize refuses a cell past MaxSourceBytes, however flat.
func TestBoundSize(t *testing.T) {
	line := "x = 1;\n"
	code := strings.Repeat(line, MaxSourceBytes/len(line))
	if _, _, err := checkLocal(code, JavaScript, nil); err != nil {
		t.Fatalf("%d bytes: %v", len(code), err)
	}
	parses, transforms := parseCalls.Load(), transformCalls.Load()
	_, _, err := checkLocal(code+line, TypeScript, nil)
	wantBound(t, err, MsgSourceTooLarge, parses, transforms)
}

// TestMeterReadsLikeEsbuild hides nesting behind what a simpler lexer would
// take for a comment, a string or a regular expression, but esbuild reads as
// code. Every one must still be refused.
func TestMeterReadsLikeEsbuild(t *testing.T) {
	deep := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	cases := map[string]string{
		"U+2028 ends a comment":          "// \u2028 x = " + deep,
		"U+2029 ends a comment":          "// \u2029 x = " + deep,
		"a regex after x!":               `x! / "/; x = ` + deep + `; "`,
		"a regex after prefix ++":        `++ / "/; x = ` + deep + `; "`,
		"a regex after postfix ++":       `a++ / "/; x = ` + deep + `; "`,
		"a regex after )":                `(a) / "/; x = ` + deep + `; "`,
		"a regex after }":                `x = {} / "/; x = ` + deep + `; "`,
		"a regex after >":                `f<T> / "/; x = ` + deep + `; "`,
		"an unknown character":           "x\u00a2 / 1; x = " + deep + "; 1 / 1",
		"a CRLF string continuation":     "x = 'a\\\r\n'; x = " + deep,
		"the wrapper closed":             "}); x = " + deep + "; (() => {",
		"closers in an HTML comment":     strings.Repeat("[ <!-- ]\n", 600),
		"closers after -->":              strings.Repeat("[\n--> ]\n", 600),
		"an error esbuild logs":          "l: l: " + deep,
		"many slashes before":            strings.Repeat("x = (a) / 2 + (b) / 3;\n", 100) + "x = " + deep,
		"a template behind a slash":      "(a) / `/; x = " + deep + "; `",
		"a chain after an IIFE's }":      strings.Repeat("function(){", 300) + strings.Repeat("}(x).a", 300),
		"automatic semicolons inside":    strings.Repeat("if (a)\n", 600) + "x",
		"a # line the shell check skips": "# a shell comment\nx;\nreturn " + deep,
		"a long identifier escape":       "\\u{00000000000078};\nreturn " + deep,
	}
	cases["type arguments over commas"] = strings.Repeat("f<a, ", 600) + "x" + strings.Repeat(">", 600) // TypeScript only
	for name, code := range cases {
		for _, lang := range []string{JavaScript, TypeScript} {
			if lang == JavaScript && name == "type arguments over commas" {
				continue // in JavaScript these are flat comparisons
			}
			parses, transforms := parseCalls.Load(), transformCalls.Load()
			_, _, err := checkLocal(code, lang, nil)
			var e *Error
			if !errors.As(err, &e) || e.Reason != ReasonSourceTooDeep {
				t.Errorf("%s as %s: %v", name, lang, err)
			}
			if parseCalls.Load() != parses || transformCalls.Load() != transforms {
				t.Errorf("%s as %s: esbuild ran", name, lang)
			}
		}
	}
}

// TestTooManyReadings: code whose slashes keep more than maxReadings ways of
// reading it open at once is refused rather than half measured. Real code
// does not do this; it takes nonsense like the repeated piece below.
func TestTooManyReadings(t *testing.T) {
	code := strings.Repeat("/()/\"\"`${/\"\"}", 8)
	if _, _, ok := measureNesting(code, false); ok {
		t.Fatal("measured")
	}
	parses, transforms := parseCalls.Load(), transformCalls.Load()
	_, _, err := checkLocal(code, JavaScript, nil)
	wantBound(t, err, MsgSourceUnreadable, parses, transforms)
	// Ordinary divisions and regular expressions merge again at once.
	code = strings.Repeat("x = (a + b) / 2 + f(c) / 3; y = !/^a/.test(s) ? {} / 2 : [] / 1;\n", 2000)
	if _, _, ok := measureNesting(code, true); !ok {
		t.Fatal("ordinary code not measured")
	}
}

// TestLexerLineTerminators: U+2028 and U+2029 end a // comment, as in every
// engine, so the module check sees what follows; a CRLF line continuation
// keeps a string going.
func TestLexerLineTerminators(t *testing.T) {
	for _, code := range []string{"// note\u2028require('fs')", "// note\u2029import('fs')"} {
		if !ModuleAccess(code) {
			t.Errorf("%q passed the module check", code)
		}
	}
	if code := "x = 'a\\\r\nrequire';"; ModuleAccess(code) {
		t.Errorf("%q: a string was taken for code", code)
	}
}

func enumMembers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " M%d,", i)
	}
	return b.String()
}
