package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestHintGolden renders the input and output hints of every schema in
// testdata/hints.txtar.
func TestHintGolden(t *testing.T) {
	const path = "testdata/hints.txtar"
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []txtar.File
	n := 0
	for _, f := range a.Files {
		name, ok := strings.CutSuffix(f.Name, ".json")
		if !ok {
			continue
		}
		n++
		raw := json.RawMessage(strings.TrimSpace(string(f.Data)))
		in, out := InputHint(raw), OutputHint(raw)
		files = append(files, f, txtar.File{
			Name: name + ".hint",
			Data: fmt.Appendf(nil, "input: %s\ninput complete: %t\noutput: %s\noutput complete: %t\n", in.Text, in.Complete, out.Text, out.Complete),
		})
	}
	if n < 40 {
		t.Errorf("only %d hint cases; keep at least 40", n)
	}
	checkGolden(t, path, string(a.Comment), files)
}

func TestHintRules(t *testing.T) {
	cases := []struct {
		schema string
		input  Hint
	}{
		{`{}`, Hint{"unknown", true}},
		{`"x"`, Hint{"unknown", false}},
		{``, Hint{"unknown", false}},
		{`{"type":"integer","minimum":0,"maximum":10,"exclusiveMinimum":1,"exclusiveMaximum":9}`, Hint{"number /* integer, >= 0, <= 10, > 1, < 9 */", true}},
		{`{"type":"number","exclusiveMinimum":true}`, Hint{"unknown", false}},
		{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, Hint{"{ a?: string }", true}},
		{`{"type":"object","additionalProperties":false}`, Hint{"{}", true}},
		{`{"type":"object"}`, Hint{"{ ... }", false}},
		{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`, Hint{"{ a?: string; ... }", false}},
		{`{"anyOf":[{"const":"a"},{"const":"b"}]}`, Hint{`"a" | "b"`, true}},
		{`{"type":"string","nullable":true}`, Hint{"string | null", true}},
	}
	for _, tc := range cases {
		if got := InputHint(json.RawMessage(tc.schema)); got != tc.input {
			t.Errorf("InputHint(%s) = %+v, want %+v", tc.schema, got, tc.input)
		}
	}
	// Output hints carry no numeric bounds.
	if got := OutputHint(json.RawMessage(`{"type":"integer","minimum":0}`)); got != (Hint{"number", true}) {
		t.Errorf("OutputHint = %+v", got)
	}
}

func TestHintLengthInUTF16Units(t *testing.T) {
	// 64 emoji are 128 UTF-16 units (256 UTF-8 bytes): the longest allowed property name.
	ok := strings.Repeat("😀", 64)
	long := ok + "x"
	s := fmt.Sprintf(`{"type":"object","properties":{%q:{"type":"string"},%q:{"type":"string"}},"additionalProperties":false}`, ok, long)
	got := InputHint(json.RawMessage(s))
	want := Hint{"{ " + jsonQuote(ok) + "?: string; ... }", false}
	if got != want {
		t.Errorf("emoji names: got %+v, want %+v", got, want)
	}
	// The input limit is 300 units: an object of emoji-named properties is
	// cut by units, never by bytes, and never in the middle of a pair.
	var props []string
	for i := range 10 {
		props = append(props, fmt.Sprintf(`"%s%d":{"type":"string"}`, strings.Repeat("😀", 20), i))
	}
	h := InputHint(json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"additionalProperties":false}`))
	if u16len(h.Text) > inputHintChars || h.Complete || !strings.HasSuffix(h.Text, "; ... }") {
		t.Errorf("hint %q (%d units) exceeds or misses truncation", h.Text, u16len(h.Text))
	}
	if u16len(h.Text) <= 300-50 {
		t.Errorf("hint %q uses only %d of 300 units", h.Text, u16len(h.Text))
	}
}

func TestU16Helpers(t *testing.T) {
	if n := u16len("a😀é\xff"); n != 5 {
		t.Errorf("u16len = %d, want 5", n)
	}
	if got := truncate16("ab😀cd", 3, ""); got != "ab" {
		t.Errorf("truncate16 split a surrogate pair: %q", got)
	}
	if got := truncate16("abcdef", 4, "…"); got != "abc…" {
		t.Errorf("truncate16 = %q", got)
	}
	if compare16("\uffff", "😀") <= 0 || compare16("😀", "😁") >= 0 || compare16("a", "ab") >= 0 {
		t.Error("compare16 must follow UTF-16 order: U+FFFF sorts after a surrogate pair")
	}
	for f, want := range map[float64]string{0: "0", 1.5: "1.5", 1e21: "1e+21", 1e-7: "1e-7", 123456789012: "123456789012", -2.5e-10: "-2.5e-10", 0.000001: "0.000001"} {
		if got := jsNumber(f); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestHintNullableLiterals: nullable widens a type, never a literal: a schema
// whose const or enum renders as literals keeps exactly those literals.
func TestHintNullableLiterals(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   Hint
	}{
		{`{"enum":["a","b"],"nullable":true}`, Hint{`"a" | "b"`, true}},
		{`{"type":"string","enum":["a","b"],"nullable":true}`, Hint{`"a" | "b"`, true}},
		{`{"type":"string","const":"x","nullable":true}`, Hint{`"x"`, true}},
		{`{"enum":["a",null],"nullable":true}`, Hint{`"a" | null`, true}},
		{`{"type":"string","nullable":true}`, Hint{"string | null", true}},
		// Past the literal limits the enum widens to its type, which is nullable.
		{`{"type":"string","enum":["a","b","c","d","e","f","g","h","i"],"nullable":true}`, Hint{"string | null", false}},
	} {
		for _, got := range []Hint{InputHint(json.RawMessage(tc.schema)), OutputHint(json.RawMessage(tc.schema))} {
			if got != tc.want {
				t.Errorf("%s: got %+v, want %+v", tc.schema, got, tc.want)
			}
		}
	}
}

// TestHintOverBoundIsUnknown: each object keeps the parts that fit its bound
// and marks the rest with "; ..."; a hint that is then longer than its bound
// is unknown, never an object cut further to fit.
func TestHintOverBoundIsUnknown(t *testing.T) {
	object := func(names ...string) string {
		var p []string
		for _, n := range names {
			p = append(p, fmt.Sprintf(`%q:{"type":"string"}`, n))
		}
		return `{"type":"object","properties":{` + strings.Join(p, ",") + `},"additionalProperties":false}`
	}
	k := strings.Repeat("k", 15)
	var nine []string // parts "k…k00N?: string" of 27 units
	for i := range 9 {
		nine = append(nine, fmt.Sprintf("%s%03d", k, i))
	}
	// "{ " + ten such parts and their nine "; " + " }" is 2+270+18+2 = 292
	// units; an eleventh part does not fit, and "; ..." makes 297.
	fits := object(append(nine, k+"009", k+"010")...)
	if h := InputHint(json.RawMessage(fits)); u16len(h.Text) != 297 || !strings.HasSuffix(h.Text, "009?: string; ... }") || h.Complete {
		t.Errorf("truncated object: %q (%d units)", h.Text, u16len(h.Text))
	}
	// A tenth part of 35 units fills the bound (300 units); the marker would
	// make 305: unknown.
	full := object(append(nine, k+"009xxxxxxxx", k+"010")...)
	if h := InputHint(json.RawMessage(full)); h != (Hint{unknownType, false}) {
		t.Errorf("object past its bound: %q (%d units)", h.Text, u16len(h.Text))
	}
	// An array of the truncated object is past the bound too.
	array := `{"type":"array","items":` + fits + `}`
	if h := InputHint(json.RawMessage(array)); h != (Hint{unknownType, false}) {
		t.Errorf("array past its bound: %q (%d units)", h.Text, u16len(h.Text))
	}
	// A nested object is bounded on its own; the outer object drops a member
	// that does not fit rather than cutting it further.
	nested := `{"type":"object","properties":{"a":` + fits + `},"additionalProperties":false}`
	if h := InputHint(json.RawMessage(nested)); h != (Hint{"{ ... }", false}) {
		t.Errorf("nested object: %q (%d units)", h.Text, u16len(h.Text))
	}
}

// TestHintLongConstLiterals: a const is its literal at any length the whole
// hint can hold; so is a union of up to four consts past the literal-union
// limits.
func TestHintLongConstLiterals(t *testing.T) {
	long := strings.Repeat("c", 120)
	for _, tc := range []struct {
		schema string
		want   Hint
	}{
		{`{"const":"` + long + `"}`, Hint{`"` + long + `"`, true}},
		{`{"type":"object","properties":{"kind":{"const":"` + long + `"}},"required":["kind"],"additionalProperties":false}`,
			Hint{`{ kind: "` + long + `" }`, true}},
		{`{"anyOf":[{"const":"` + long + `"},{"const":"b"}]}`, Hint{`"` + long + `" | "b"`, true}},
		{`{"const":"` + strings.Repeat("c", 299) + `"}`, Hint{unknownType, false}},
	} {
		if got := InputHint(json.RawMessage(tc.schema)); got != tc.want {
			t.Errorf("%.60s…: got %+v, want %+v", tc.schema, got, tc.want)
		}
	}
}
