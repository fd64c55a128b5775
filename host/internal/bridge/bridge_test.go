package bridge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sent are the op names the guest scripts send: the host prelude's
// bridge(op, ...), request(op, ...) and note(op, ...) calls, the
// environment scripts' request(op, ...) calls, and the ops bridgeabi.wit
// documents for them.
func sent(t *testing.T) map[string][]string {
	t.Helper()
	call := regexp.MustCompile(`\b(?:bridge|request|note)\("([A-Za-z_.]+)"`)
	wit := regexp.MustCompile(`(?m)^\s*///\s+([a-z_]+) \{`)
	out := map[string][]string{}
	read := func(path string, re *regexp.Regexp) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = append(out[m[1]], filepath.Base(path))
		}
	}
	read(filepath.Join("..", "..", "prelude.js"), call)
	env, _ := filepath.Glob(filepath.Join("..", "..", "..", "abi", "*.js"))
	if len(env) == 0 {
		t.Fatal("no environment scripts in abi/")
	}
	for _, p := range env {
		read(p, call)
	}
	read(filepath.Join("..", "..", "..", "bridgeabi.wit"), wit)
	return out
}

// TestTableMatchesGuest: every op a guest script sends is in the table, and
// every op of the table is sent by one.
func TestTableMatchesGuest(t *testing.T) {
	guest := sent(t)
	for name, files := range guest {
		if Lookup(name) == Unknown {
			t.Errorf("%s sends op %q, which the op table does not have", files[0], name)
		}
	}
	for op := Unknown + 1; op < numOps; op++ {
		if _, ok := guest[op.String()]; !ok {
			t.Errorf("op %q is in the table but no guest script sends it", op)
		}
	}
	if Lookup("") != Unknown || Lookup("nope") != Unknown || Op(200).String() != "" {
		t.Error("an unknown name or op must be Unknown")
	}
}

func TestDecode(t *testing.T) {
	a, err := Decode(`{"id":"core:x","input":{"a":[1,"}"]},"server":null,"name":"n\u00e9","options":{"limit":3}}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != (ID{Value: "core:x", Len: 8, Set: true, String: true}) || string(a.Input) != `{"a":[1,"}"]}` ||
		a.Server.Set || a.Name != (Name{Value: "né", Set: true}) || string(a.Options.Limit) != "3" {
		t.Errorf("decoded %+v", a)
	}
	if a, _ = Decode(`{"id":7}`); !a.ID.Set || a.ID.String {
		t.Errorf("a number id: %+v", a.ID)
	}
	if a, _ = Decode(`{"id":null}`); !a.ID.String || a.ID.Value != "" {
		t.Errorf("a null id reads as the empty string: %+v", a.ID)
	}
	for _, bad := range []string{`[]`, `{"server":1}`, `{"name":{}}`, `{"path":2}`, `x`} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%s) succeeded", bad)
		}
	}
}

func TestKeys(t *testing.T) {
	for raw, want := range map[string][]string{
		`{}`:                            {},
		` { } `:                         {},
		`{"a":1,"b":"}","c":{"d":[]}}`:  {"a", "b", "c"},
		`{"\u0061\"":true, "e" : null}`: {`a"`, "e"},
		`{"x":-1.5e3,"y":[{"z":"]"}]}`:  {"x", "y"},
	} {
		var got []string
		if !Keys([]byte(raw), func(k string) { got = append(got, k) }) || !slices.Equal(got, want) && len(want) > 0 {
			t.Errorf("Keys(%s) = %q", raw, got)
		}
	}
	for _, raw := range []string{``, `[]`, `"a"`, `1`, `{"a"}`, `{"a":1`, `{"a":1}x`, `{"a":1,}`} {
		if Keys([]byte(raw), func(string) {}) {
			t.Errorf("Keys(%s) took a non-object", raw)
		}
	}
}

// TestOutcomeAsMarshal: whatever path encodes a value, the guest parses
// what json.Marshal would have given it, and a value json.Marshal refuses is
// refused with its error.
func TestOutcomeAsMarshal(t *testing.T) {
	content := []json.RawMessage{json.RawMessage(`{"type":"text", "text":"<b>"}`)}
	for _, v := range []any{
		nil, true, 1, "s<", json.RawMessage(`[1, 2]`), content, []json.RawMessage(nil),
		map[string]any{"content": content, "structuredContent": map[string]any{"n": 1.5, "s": "x"}, "isError": true},
		map[string]any{"é": 1, "<": 2}, map[string]any(nil),
		struct{ A []int }{[]int{1}},
	} {
		out := Outcome(v, nil)
		want, _ := json.Marshal(v)
		var got, exp any
		if out.Rejected || json.Unmarshal([]byte(out.Value), &got) != nil || json.Unmarshal(want, &exp) != nil || !reflect.DeepEqual(got, exp) {
			t.Errorf("Outcome(%#v) = %+v, json.Marshal gives %s", v, out, want)
		}
	}
	for _, v := range []any{json.RawMessage(`{`), json.RawMessage{}, map[string]any{"a": json.RawMessage(`nope`)}, map[string]any{"c": make(chan int)}} {
		_, err := json.Marshal(v)
		if out := Outcome(v, nil); !out.Rejected || !strings.HasSuffix(out.Value, err.Error()) {
			t.Errorf("Outcome(%#v) = %+v, want the rejection of %v", v, out, err)
		}
	}
}
