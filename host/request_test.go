package host

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/seed11a79d2d/codemode/catalog"
)

// TestMCPInputAsWritten: an MCP tool's input reaches it as the guest wrote
// it, with only the defaults it lacks put in front; a key spelled with
// escapes counts as given, and an input that is no object, or lacks a
// required key no default fills, is refused.
func TestMCPInputAsWritten(t *testing.T) {
	tl := catalog.MCPTool{Required: []string{"query", "limit"}, Defaults: []catalog.MCPDefault{{Key: "limit", Value: json.RawMessage(`3`)}, {Key: "lang", Value: json.RawMessage(`"en"`)}}}
	for in, want := range map[string]string{
		`{"query":"x"}`:                                   `{"limit":3,"lang":"en","query":"x"}`,
		` {"query":"x" , "lang":"de"} `:                   `{"limit":3,"query":"x" , "lang":"de"}`,
		`{"z":{"}":"{"},"query":"q","limit":1,"lang":""}`: `{"z":{"}":"{"},"query":"q","limit":1,"lang":""}`,
		`{"\u006cimit":1,"query":"q","lang":"x"}`:         `{"\u006cimit":1,"query":"q","lang":"x"}`,
	} {
		got, err := mcpInput(tl, json.RawMessage(in))
		if err != nil || string(got) != want || !json.Valid(got) {
			t.Errorf("mcpInput(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	empty := catalog.MCPTool{Defaults: tl.Defaults}
	for _, in := range []string{`{}`, ` { } `} {
		got, err := mcpInput(empty, json.RawMessage(in))
		var m map[string]any
		if err != nil || json.Unmarshal(got, &m) != nil || !reflect.DeepEqual(m, map[string]any{"limit": 3.0, "lang": "en"}) {
			t.Errorf("mcpInput(%s) = %s, %v", in, got, err)
		}
	}
	for in, want := range map[string]string{
		`[{"query":1}]`: "MCP namespace tools accept one object argument.",
		`"query"`:       "MCP namespace tools accept one object argument.",
		`{"limit":1}`:   "Missing required MCP namespace argument: query",
	} {
		if _, err := mcpInput(tl, json.RawMessage(in)); err == nil || err.Error() != want {
			t.Errorf("mcpInput(%s): %v, want %s", in, err, want)
		}
	}
}

// TestMCPInputHostile: inputs built to confuse a scan of an object's keys
// (a key in a nested object, brackets and quotes inside strings, thousands
// of levels of nesting) reach the tool as valid JSON, with a default added
// only where the top level lacks its key.
func TestMCPInputHostile(t *testing.T) {
	src := &fakeMCP{}
	run := mcpRun(t, src)
	r := exec(t, run, `
		let deep = "x"; for (let i = 0; i < 3000; i++) deep = [deep];
		await MCP.docs.searchDocs({ nested: { limit: 9 }, query: "}\"{[", deep });
		await MCP.docs.searchDocs({ query: "q", limit: 7 });
		return 1;`)
	if r.Status != StatusCompleted || len(src.calls) != 2 {
		t.Fatalf("%+v, calls %d", r, len(src.calls))
	}
	for i, want := range []float64{3, 7} {
		var in map[string]any
		if err := json.Unmarshal([]byte(src.calls[i]), &in); err != nil || in["limit"] != want {
			t.Errorf("call %d reached the tool as %.80s (%v), want limit %v", i, src.calls[i], err, want)
		}
	}
}
