package reliability

import (
	"fmt"
	"strings"
)

// sourceShape is a cell built to make a parser or printer do more than
// linear work while staying under the host's own source bounds (256 KiB,
// 500 levels of nesting, the joined-literal count).
type sourceShape struct {
	name, lang, src string
}

// maxShape keeps every shape under the 256 KiB source bound.
const maxShape = 250_000

// fill repeats unit after head until the cell is nearly maxShape bytes.
func fill(head, unit, tail string) string {
	n := max(1, (maxShape-len(head)-len(tail))/len(unit))
	return head + strings.Repeat(unit, n) + tail
}

// sourceShapes are the shapes that took gigabytes or minutes of the host's
// own process when esbuild ran there: the first seven as found by an
// attack on the host, the rest written to widen the family (folding,
// templates, enums, deep blocks, huge identifiers, regex literals,
// JSX-like text, types).
func sourceShapes() []sourceShape {
	r := strings.Repeat
	enum := func(member func(i int) string, n int) string {
		var b strings.Builder
		b.WriteString("enum E { M0 = \"ab\"")
		for i := 1; i < n && b.Len() < maxShape-20; i++ {
			b.WriteString(", " + member(i))
		}
		b.WriteString(" }\nreturn E.M1;")
		return b.String()
	}
	shapes := []sourceShape{
		{"fold plus one", "typescript", fill(`const s="x"`, "+1", ";")},
		{"fold after a shell-shaped line", "javascript", fill("foo\nconst s=\"x\"", "+1", ";")},
		{"fold parenthesised literals", "typescript", fill("const s=('abcdefgh')", "+('abcdefgh')", ";")},
		{"enum of templates", "typescript", enum(func(i int) string { return fmt.Sprintf("M%d = `${M%d}${M%d}`", i, i-1, i-1) }, 1<<20)},
		{"nested arrows", "typescript", fill("", "x = "+r("a=>", 400)+"a;\n", "")},
		{"duplicate let", "typescript", fill("", "let a = 1;\n", "")},
		{"deep blocks", "typescript", fill("", r("{", 450)+r("}", 450)+"\n", "")},
		{"fold templates", "typescript", fill("const s=`x`", "+`x${1}`", ";")},
		{"fold after a shell-shaped line, parenthesised", "javascript", fill("foo\nconst s=('ab')", "+('ab')", ";")},
		{"nested templates", "typescript", fill("", "x = "+r("`${", 240)+"1"+r("}`", 240)+";\n", "")},
		{"enum of numbers", "typescript", enum(func(i int) string { return fmt.Sprintf("M%d = M%d * 2 + M%d", i, i-1, i-1) }, 1<<20)},
		{"enum of joined strings", "typescript", enum(func(i int) string { return fmt.Sprintf("M%d = M%d + M%d", i, i-1, i-1) }, 1<<20)},
		{"huge identifier", "typescript", "const " + r("a", maxShape-20) + " = 1;\nreturn 1"},
		{"huge identifier in JavaScript after a shell-shaped line", "javascript", "foo\nconst " + r("a", maxShape-20) + " = 1;"},
		{"regex literals", "typescript", fill("", "/a(b|c)*d/g.test(x);\n", "")},
		{"one huge regex class", "typescript", "return /[" + r("a-z0-9", (maxShape-20)/6) + "]/.test('a')"},
		{"JSX-like text", "typescript", fill("", "x = <any><div>text</div>;\n", "")},
		{"nested type assertions", "typescript", fill("", "x = "+r("<any>", 400)+"y;\n", "")},
		{"nested generics", "typescript", fill("", "type T = "+r("A<", 240)+"B"+r(">", 240)+";\n", "")},
		{"huge union", "typescript", fill("type U = 'a'", "|'a'", ";\nreturn 1")},
		{"fold numbers", "typescript", fill("const n=1", "+1", ";return n")},
		{"class fields of joined strings", "typescript", fill("class C { ", "f = 'a' + 'b'; ", "}\nreturn 1")},
		{"decorators", "typescript", fill("const d = (c: any) => c;\n", "@d class C {}\n", "return 1")},
		{"dotted namespace", "typescript", "namespace " + strings.TrimSuffix(r("A.", 40000), ".") + " { export const x = 1 }\nreturn 1"},
		{"optional chains", "typescript", fill("", "x?.a?.b?.c?.d?.e?.f;\n", "")},
		{"comma sequence", "typescript", fill("x = (a", ", a", ");")},
		{"computed keys of joined strings", "typescript", fill("const o = {", "['k' + 'e' + 'y']: 1,", "};\nreturn 1")},
		{"tagged templates", "typescript", fill("const t = (s: any) => s;\n", "t`a${t`b${1}`}`;\n", "return 1")},
		{"string enum members in templates, JavaScript", "javascript", fill("foo\nconst s=`x`", "+`x${'y'}`", ";")},
	}
	return shapes
}
