package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// FuzzHint checks that schema-to-hint rendering never panics, stays within
// its bounds, never emits a raw line terminator and is deterministic.
func FuzzHint(f *testing.F) {
	for _, s := range []string{
		`{}`, `true`, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
		`{"anyOf":[{"const":"a"},{"const":1}]}`, `{"type":["integer","null"],"minimum":-1e308,"exclusiveMaximum":1e-300}`,
		`{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{}}}}}}`,
		`{"enum":["\u2028","*/",null]}`, `{"oneOf":[{"anyOf":[{"oneOf":[{"type":"string"}]}]}]}`,
		`{"properties":{"😀":{"nullable":true,"type":"object"}},"nullable":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, lim := range []hintLimits{inputLimits, outputLimits} {
			h1 := renderHint(raw, lim)
			h2 := renderHint(raw, lim)
			if h1 != h2 {
				t.Fatalf("not deterministic: %+v vs %+v", h1, h2)
			}
			if n := u16len(h1.Text); n > lim.chars || n == 0 {
				t.Fatalf("hint of %d units (limit %d): %q", n, lim.chars, h1.Text)
			}
			if strings.ContainsAny(h1.Text, "\n\r\u2028\u2029") {
				t.Fatalf("hint holds a line terminator: %q", h1.Text)
			}
		}
	})
}

// FuzzDTS renders MCP declaration files and a quick index from arbitrary
// names and descriptions, and checks that no comment or string is left open
// and that the quick index keeps its bounds and its one-line-per-entry shape.
func FuzzDTS(f *testing.F) {
	f.Add("create_issue", "github", "Create an issue.\n@param x", "title", "Issue */ title", `"*/"`)
	f.Add("*/", "*/", "*/", "*/", "/*", `{"a":"*/"}`)
	f.Add("a\u2028b", "s\rv", "**\u2029/", "p\nq", "*\n/", `1`)
	f.Add("", "", "", "", "", ``)
	f.Fuzz(func(t *testing.T, name, server, desc, prop, propDesc, def string) {
		if name == "" || server == "" {
			return
		}
		propSchema := map[string]any{"type": "string", "description": propDesc, "enum": []string{prop, desc}}
		var d any
		if json.Unmarshal([]byte(def), &d) == nil {
			propSchema["default"] = d
		}
		in, err := json.Marshal(map[string]any{
			"type": "object", "required": []string{prop},
			"properties": map[string]any{prop: propSchema, "n": map[string]any{"type": "object", "properties": map[string]any{prop: map[string]any{"const": desc}}}},
		})
		if err != nil {
			t.Skip()
		}
		c, err := Build([]Tool{
			{Name: name, Description: desc, Origin: OriginMCP, Owner: server, InputSchema: in},
			{Name: name + "2", Description: desc, Origin: OriginMCP, Owner: server},
			{Name: name, Label: desc, Description: desc, Origin: OriginExternalPlugin, Owner: server, InputSchema: in},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range c.APIFiles().Files() {
			if err := lexDTS(file.Content); err != nil {
				t.Fatalf("%s: %v\n%s", file.Path, err, file.Content)
			}
		}
		for _, s := range c.MCPServers() {
			api, err := c.MCPServerAPI(s.Identifier, "", false)
			if err != nil {
				t.Fatal(err)
			}
			if err := lexDTS(api.Header); err != nil {
				t.Fatalf("$api header: %v", err)
			}
		}
		q := c.QuickIndex()
		if u16len(q) > QuickIndexBudget {
			t.Fatalf("quick index of %d units", u16len(q))
		}
		lines := strings.Split(q, "\n")
		if strings.ContainsAny(q, "\r\u2028\u2029") || len(lines) > 7 {
			t.Fatalf("quick index lines broken:\n%q", q)
		}
	})
}

// FuzzDecodeJSON checks the schema decoder against encoding/json: the same
// inputs are accepted, and they decode to the same values.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,-2.5e3,"x\u00e9\ud83d\ude00",true,null]}`, `"\ud800"`, ` [ ] `, `01`, `{"a":1,"a":2}`, "\"\xff\"", `"\u0000"`, `1 2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeJSON(raw)
		var want any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		err := dec.Decode(&want)
		if err == nil {
			if _, tokErr := dec.Token(); tokErr != io.EOF {
				err = errors.New("trailing data")
			}
		}
		if ok != (err == nil) {
			t.Fatalf("decodeJSON ok=%v, encoding/json err=%v for %q", ok, err, raw)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeJSON = %#v, encoding/json = %#v", got, want)
		}
	})
}
