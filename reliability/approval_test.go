package reliability

import (
	"context"
	"encoding/json"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/mcpserve"
	"github.com/seed11a79d2d/codemode/tool"
)

// approvalAttacks are cells that try to get a call approved by a person
// who does not see all of it: each calls ship, a tool that needs approval,
// with "AND-ALL-OTHERS" where the person might miss it. refused, when set,
// is the start of the reason the call is declined without asking.
var approvalAttacks = []struct{ name, input, refused string }{
	{"pad past the old 200-character cut", `{id: "SHP-1" + " ".repeat(300) + "-AND-ALL-OTHERS"}`, ""},
	{"pad past the old 1 KiB view", `{id: "SHP-1" + " ".repeat(5000) + "-AND-ALL-OTHERS"}`, ""},
	{"filler keys before the payload", `Object.fromEntries([...Array(60)].map((_, i) => ["k" + i, "x".repeat(10)]).concat([["scope", "AND-ALL-OTHERS"]]))`, ""},
	{"payload below the old depth cut", `{id: "SHP-1", a: {b: {c: {d: {e: {f: {g: {scope: "AND-ALL-OTHERS"}}}}}}}}`, ""},
	{"payload in a padded key", `{id: "SHP-1", [" ".repeat(400) + "AND-ALL-OTHERS"]: true}`, ""},
	{"newlines push it below the fold", `{id: "SHP-1" + "\n".repeat(200) + "AND-ALL-OTHERS"}`, ""},
	{"carriage returns overwrite the line", `{id: "AND-ALL-OTHERS\r".repeat(3) + "SHP-1"}`, ""},
	{"zero-width characters", `{id: "SHP-1\u200b\u2060\ufeff-AND-ALL-OTHERS".repeat(2)}`, ""},
	{"right-to-left override", `{id: "SHP-1\u202eSREHTO-LLA-DNA"}`, ""},
	{"terminal escape conceals", `{id: "SHP-1\u001b[8m-AND-ALL-OTHERS\u001b[0m"}`, ""},
	{"C1 control", `{id: "SHP-1\u009b8m-AND-ALL-OTHERS"}`, ""},
	{"wide blanks", `{id: "SHP-1" + "\u3000\u00a0\u2003".repeat(100) + "-AND-ALL-OTHERS"}`, ""},
	{"Hangul fillers and braille blanks", `{id: "SHP-1" + "\u3164\u2800".repeat(100) + "-AND-ALL-OTHERS"}`, ""},
	{"tag characters", `{id: "SHP-1" + [..."AND-ALL-OTHERS"].map(c => String.fromCodePoint(0xE0000 + c.charCodeAt(0))).join("")}`, ""},
	{"combining marks pile over the text", `{id: "SHP-1" + "\u0336\u0489".repeat(60) + "-AND-ALL-OTHERS"}`, ""},
	{"forged notes of the view", `{id: "SHP-1", scope: "⟨hidden⟩⟨300 spaces⟩AND-ALL-OTHERS"}`, ""},
	{"a getter that changes its answer", `(() => { let n = 0; return {get id() { return n++ ? "SHP-1" : "AND-ALL-OTHERS" }} })()`, ""},
	{"toJSON that swaps the value", `{id: "SHP-1", toJSON() { return {id: "AND-ALL-OTHERS"} }}`, ""},
	{"too long to show whole", `{id: "SHP-1", scope: "AND-ALL-OTHERS ".repeat(1000)}`, "its input cannot be shown for approval: it is too long to show the person whole"},
	{"too deep to follow", `{id: "SHP-1", scope: JSON.parse("[".repeat(50) + '"AND-ALL-OTHERS"' + "]".repeat(50))}`, "its input cannot be shown for approval: it nests deeper than 32 levels"},
}

// viewNote is a note of the view for a run of one character.
var viewNote = regexp.MustCompile(`⟨(\d+) (?:spaces|× (\\u[0-9a-f]{4}\\u[0-9a-f]{4}|\\u[0-9a-f]{4}|\\.|.))⟩`)

// TestApprovalPromptAttacks sends approvalAttacks through mcpserve to a
// real MCP client whose person accepts whatever they are asked. Every call
// is either declined without asking, with its reason, or asked with a
// prompt that is legible (no invisible character, no long blank run, no
// combining pile) and means exactly the input the tool then gets: what
// the person read is what ran.
func TestApprovalPromptAttacks(t *testing.T) {
	var mu sync.Mutex
	var ran []json.RawMessage
	relay := &mcpserve.Relay{}
	rt, err := host.New(context.Background(), &host.Options{
		CodeMode: &host.Config{Enabled: true},
		Tools: []tool.Tool{{Name: "ship", Description: "Mark shipments paid.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				mu.Lock()
				defer mu.Unlock()
				ran = append(ran, c.Input)
				return tool.Result{Details: "done"}, nil
			}}},
		Policy: &host.Policy{Approval: []string{"ship"}},
		Hooks:  tool.Hooks{Approve: relay.Approve},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	var asked []string
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserve.Serve(context.Background(), rt, &mcpserve.Options{In: sr, Out: sw, Relay: relay})
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "person", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req.Params.Message)
			return &sdk.ElicitResult{Action: "accept"}, nil
		},
	}).Connect(context.Background(), &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); <-done }()

	for _, a := range approvalAttacks {
		t.Run(a.name, func(t *testing.T) {
			mu.Lock()
			asked, ran = nil, nil
			mu.Unlock()
			code := `try { return await tools.callValue("ship", ` + a.input + `) } catch (e) { return "refused: " + e.message }`
			r, _, err := callResult(context.Background(), cs, "exec", map[string]string{"code": code})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			var got string
			json.Unmarshal(r.Value, &got)
			if a.refused != "" {
				if !strings.Contains(got, "was blocked before execution: "+a.refused) || len(asked) != 0 || len(ran) != 0 {
					t.Fatalf("value %q (asked %d, ran %d), want a refusal without asking: %s", got, len(asked), len(ran), a.refused)
				}
				return
			}
			if got != "done" || len(asked) != 1 || len(ran) != 1 {
				t.Fatalf("value %q (asked %d, ran %d), want one prompt and one run", got, len(asked), len(ran))
			}
			view, ok := strings.CutPrefix(asked[0], "A cell wants to call openclaw:core:ship with ")
			view, ok2 := strings.CutSuffix(view, ". Allow it?")
			if !ok || !ok2 {
				t.Fatalf("prompt %q", asked[0])
			}
			checkLegible(t, view)
			if shown, ran := decodeView(t, view), decodeNumbers(t, string(ran[0])); !reflect.DeepEqual(shown, ran) {
				t.Errorf("the person read %s (%v), the tool got %s", view, shown, ran)
			}
		})
	}
}

// checkLegible fails on characters that show as nothing or as blank space,
// long runs of spaces, and more than two combining marks in a row.
func checkLegible(t *testing.T, view string) {
	t.Helper()
	marks := 0
	if strings.Contains(view, "        ") {
		t.Errorf("a run of spaces in %q", view)
	}
	for _, r := range view {
		if unicode.In(r, unicode.Mn, unicode.Me) {
			marks++
		} else {
			marks = 0
		}
		if r != ' ' && (!unicode.IsGraphic(r) || unicode.In(r, unicode.Zs, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)) || marks > 2 || r == '\u2800' {
			t.Errorf("%U shown in %q", r, view)
		}
	}
}

// decodeView expands a view's notes of runs and decodes it as JSON.
func decodeView(t *testing.T, view string) any {
	t.Helper()
	expanded := viewNote.ReplaceAllStringFunc(view, func(n string) string {
		m := viewNote.FindStringSubmatch(n)
		count, _ := strconv.Atoi(m[1])
		if m[2] == "" {
			return strings.Repeat(" ", count)
		}
		return strings.Repeat(m[2], count)
	})
	return decodeNumbers(t, expanded)
}

func decodeNumbers(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
