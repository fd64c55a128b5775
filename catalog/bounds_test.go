package catalog

import (
	"encoding/json"
	"strings"
	"testing"
)

// nestedArrays is an input schema of items nested levels deep, each level's
// type list naming "array" repeat times (and "null" once).
func nestedArrays(levels, repeat int) json.RawMessage {
	types := `["null"` + strings.Repeat(`,"array"`, repeat) + `]`
	s := `{"type":"string"}`
	for range levels {
		s = `{"type":` + types + `,"items":` + s + `}`
	}
	return json.RawMessage(`{"type":"object","properties":{"a":` + s + `},"required":["a"]}`)
}

// TestRepeatedTypeNames: a downstream server's schema that repeats a type
// name renders exactly like one that names it once. Rendering each repeat
// was exponential in the nesting (78 s for 1 KB); with 64 repeats at 8
// levels this test would not finish.
func TestRepeatedTypeNames(t *testing.T) {
	once, many := nestedArrays(8, 1), nestedArrays(8, 64)
	if a, b := InputHint(once), InputHint(many); a != b {
		t.Errorf("input hint %+v, want %+v", b, a)
	}
	if a, b := OutputHint(once), OutputHint(many); a != b {
		t.Errorf("output hint %+v, want %+v", b, a)
	}
	decode := func(raw json.RawMessage) any {
		v, _ := decodeJSON(raw)
		return v.(map[string]any)["properties"].(map[string]any)["a"]
	}
	if a, b := dtsTypeOf(decode(once)), dtsTypeOf(decode(many)); a != b {
		t.Errorf("declaration type %q, want %q", b, a)
	}
	// A non-string name still spoils the list, wherever it is.
	bad := json.RawMessage(`{"type":["string","string",1]}`)
	if h := InputHint(bad); h.Text != unknownType || h.Complete {
		t.Errorf("hint of %s = %+v", bad, h)
	}
}

// TestDeepSchemas: schemas nested to the decoder's limit render a bounded
// hint and declaration instead of recursing; one level more does not decode.
func TestDeepSchemas(t *testing.T) {
	deep := func(n int) json.RawMessage {
		return json.RawMessage(strings.Repeat(`{"items":`, n) + `{}` + strings.Repeat(`}`, n))
	}
	if h := InputHint(deep(maxJSONDepth - 1)); h.Text == "" || h.Complete {
		t.Errorf("deep hint = %+v", h)
	}
	v, ok := decodeJSON(deep(maxJSONDepth - 1))
	if !ok || dtsTypeOf(v) != "unknown[][][][][]" {
		t.Errorf("deep declaration type = %q (decoded %v)", dtsTypeOf(v), ok)
	}
	if _, ok := decodeJSON(deep(maxJSONDepth + 1)); ok {
		t.Error("a schema past the depth limit decoded")
	}
}
