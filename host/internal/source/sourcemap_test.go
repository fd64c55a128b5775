package source

import (
	"strings"
	"testing"
)

func TestVLQ(t *testing.T) {
	for in, want := range map[string]int{"A": 0, "C": 1, "D": -1, "gB": 16, "hB": -16, "+/D": 2047} {
		v, rest, err := vlq(in + "X")
		if err != nil || v != want || rest != "X" {
			t.Errorf("%s: %d %q %v, want %d", in, v, rest, err, want)
		}
	}
	for _, bad := range []string{"", "g", "!", "gggggggggA"} {
		if _, _, err := vlq(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
	for _, bad := range []string{`{"mappings": "A!"}`, `{"mappings": "AAAAAA"}`, `{"mappings": "AA"}`, `[`} {
		if _, err := newMap([]byte(bad), 0, "", ""); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// at is the 1-based line and byte column of the first occurrence of s in text.
func at(t *testing.T, text, s string) (int, int) {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q not in %q", s, text)
	}
	line := strings.Count(text[:i], "\n") + 1
	return line, i - (strings.LastIndexByte(text[:i], '\n') + 1) + 1
}

func TestMapPosition(t *testing.T) {
	cases := []struct{ name, code, find string }{
		{"types above", "interface A {\n  a: string\n}\ntype B = A;\n\nconst x: number = 1;\nthrow new Error(\"line7\");", `Error("line7")`},
		// esbuild escapes the non-ASCII text; the map counts UTF-16 units.
		{"non-ASCII before", "const s: string = \"é😀\"; throw new Error(s as string)", "Error(s"},
		// Decorators put helpers above the code.
		{"helpers above", "function dec(c: any) { return c }\n@dec class C {}\ntype T = string;\nthrow new Error(\"x\" as T);", `Error("x"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, m, err := checkLocal(c.code, TypeScript, nil)
			if err != nil || m == nil {
				t.Fatalf("%v %v", m, err)
			}
			wantLine, wantCol := at(t, c.code, c.find)
			jsLine, jsCol := at(t, js, strings.ReplaceAll(strings.ReplaceAll(c.find, " as T", ""), " as string", ""))
			if l, col, ok := m.Position(jsLine, jsCol); !ok || l != wantLine || col != wantCol {
				t.Fatalf("%d:%d -> %d:%d %v, want %d:%d in\n%s", jsLine, jsCol, l, col, ok, wantLine, wantCol, js)
			}
		})
	}
}

func TestMapOutsideTheCode(t *testing.T) {
	code := "function dec(c: any) { return c }\n@dec class C {}\nthrow new Error(\"x\");"
	js, m, err := checkLocal(code, TypeScript, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(js, "var ") {
		t.Fatalf("no helpers above the code:\n%s", js)
	}
	if l, c, ok := m.Position(1, 1); ok || l != 1 || c != 1 {
		t.Errorf("helper line: %d:%d %v", l, c, ok)
	}
	lines := strings.Count(js, "\n") + 1
	if _, _, ok := m.Position(lines+1, 1); ok {
		t.Error("a line past the JavaScript is the user's code")
	}
	if l, c := m.End(); l != 3 || c != len("throw new Error(\"x\");")+1 {
		t.Errorf("end %d:%d", l, c)
	}
	if _, m, _ := checkLocal("return 1", JavaScript, nil); m != nil {
		t.Error("JavaScript has a map")
	}
}
