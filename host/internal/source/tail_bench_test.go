package source

import (
	"strings"
	"testing"
)

// benchCells are typical cells: a few lines that call tools and shape the
// result, ending in a return (the common case), in a plain expression, or
// in one esbuild must confirm.
var benchCells = []struct{ name, lang, code string }{
	{"returns", JavaScript, "const r = await tools.callValue(\"openclaw:demo:shipping_list\", {});\n" +
		"const unpaid = r.filter((s) => !s.paid && s.tons > 10);\nreturn unpaid.map((s) => s.id);"},
	{"returns-4KiB", JavaScript, strings.Repeat("const a = await tools.callValue(\"x\", { q: [1, 2, 3] });\nif (a.ok) { text(a.items.length) }\n", 45) + "return a"},
	{"trailing-plain", JavaScript, "const r = await tools.callValue(\"openclaw:demo:shipping_list\", {});\n" +
		"const unpaid = r.filter((s) => !s.paid && s.tons > 10);\nunpaid.map((s) => s.id)"},
	{"trailing-checked", JavaScript, "const r = await tools.callValue(\"openclaw:demo:shipping_list\", {});\n" +
		"const unpaid = r.filter((s) => !s.paid && s.tons > 10);\nresult = { ids: unpaid.map((s) => s.id) }\n"},
	{"ts-returns", TypeScript, "type S = { id: string; paid: boolean };\nconst r: S[] = await tools.callValue(\"x\", {});\nreturn r.map((s) => s.id);"},
	{"ts-trailing", TypeScript, "type S = { id: string; paid: boolean };\nconst r: S[] = await tools.callValue(\"x\", {});\nr.map((s) => s.id)"},
}

// BenchmarkCheck is Check's whole cost per cell. Run it on the tree before
// the rewrite to see what the rewrite adds:
//
//	go test -run '^$' -bench 'Check$' -benchmem ./host/internal/source/
func BenchmarkCheck(b *testing.B) {
	for _, c := range benchCells {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := checkLocal(c.code, c.lang, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReturnTail is the rewrite's own cost on a JavaScript cell whose
// tokens the module check already has: what every cell pays for it.
func BenchmarkReturnTail(b *testing.B) {
	for _, c := range benchCells {
		if c.lang != JavaScript {
			continue
		}
		_, lx := moduleAccess(c.code)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				returnTail(c.code, lx, nil, c.code, here)
			}
		})
	}
}

// BenchmarkCheckThroughParser is Check as the host calls it: cells that
// need esbuild pay a round trip to a warm parser process.
func BenchmarkCheckThroughParser(b *testing.B) {
	for _, c := range benchCells {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Check(b.Context(), "b", c.code, c.lang, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
