package mcpserve

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

// approvalRuntime has one tool, wipe, whose annotations mark it
// destructive, decided by relay.
func approvalRuntime(t *testing.T, relay *Relay, wiped *[]string) *host.Runtime {
	return approvalRuntimeWith(t, `true`, relay, wiped, nil)
}

// approvalRuntimeWith is approvalRuntime with a code-mode config and more
// tools beside wipe.
func approvalRuntimeWith(t testing.TB, config string, relay *Relay, wiped *[]string, more []tool.Tool) *host.Runtime {
	rt, err := newApprovalRuntime(config, relay, wiped, more)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

func newApprovalRuntime(config string, relay *Relay, wiped *[]string, more []tool.Tool) (*host.Runtime, error) {
	var mu sync.Mutex
	wipe := tool.Tool{Name: "wipe", Description: "Wipe a disk.", Annotations: json.RawMessage(`{"destructiveHint":true}`),
		InputSchema: json.RawMessage(`{"type":"object","properties":{"disk":{"type":"string"},"apiToken":{"type":"string"}}}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			mu.Lock()
			defer mu.Unlock()
			*wiped = append(*wiped, string(c.Input))
			return tool.Result{Details: "wiped"}, nil
		}}
	return host.New(context.Background(), &host.Options{
		CodeMode: hosttest.CodeMode(json.RawMessage(config)),
		Tools:    append([]tool.Tool{wipe}, more...),
		Policy:   &host.Policy{ApproveDestructive: true},
		Hooks:    tool.Hooks{Approve: relay.Approve},
	})
}

const wipeCell = `try { return await tools.callValue("wipe", { disk: "sdb", apiToken: "s3cr3t-value" }) } catch (e) { return "refused: " + e.message }`

// A destructive tool's call asks the person at the client; accept runs it,
// decline and cancel are catchable refusals that say so, and the prompt
// shows the input with its secret hidden.
func TestApprovalThroughElicitation(t *testing.T) {
	relay := &Relay{}
	var wiped []string
	rt := approvalRuntime(t, relay, &wiped)
	answers := make(chan string, 3)
	var asked []string
	cs := servePipes(t, rt, Options{Relay: relay}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &sdk.ElicitResult{Action: <-answers}, nil
		},
	})
	for _, c := range []struct{ answer, want string }{
		{"accept", "wiped"},
		{"decline", `refused: Tool "openclaw:core:wipe" was blocked before execution: the person at the client declined`},
		{"cancel", "the person at the client cancelled the approval"},
	} {
		answers <- c.answer
		_, r := call(t, context.Background(), cs, "exec", map[string]string{"code": wipeCell})
		if got, _ := r["value"].(string); !strings.Contains(got, c.want) {
			t.Errorf("%s: value %q, want %q (%v)", c.answer, got, c.want, r)
		}
	}
	if len(wiped) != 1 {
		t.Fatalf("wiped %d times, want once (accepted only)", len(wiped))
	}
	if len(asked) != 3 || !strings.Contains(asked[0], "openclaw:core:wipe") || !strings.Contains(asked[0], `"disk":"sdb"`) ||
		!strings.Contains(asked[0], `"apiToken":⟨hidden⟩`) || strings.Contains(asked[0], "s3cr3t") {
		t.Errorf("prompts %q", asked)
	}
}

// A client that cannot be asked gets the configured default: deny, which
// says why, or allow.
func TestApprovalWithoutElicitation(t *testing.T) {
	for _, allow := range []bool{false, true} {
		relay := &Relay{AllowWithoutElicitation: allow}
		var wiped []string
		cs := servePipes(t, approvalRuntime(t, relay, &wiped), Options{Relay: relay}, &sdk.ClientOptions{})
		_, r := call(t, context.Background(), cs, "exec", map[string]string{"code": wipeCell})
		got, _ := r["value"].(string)
		want := "it needs a person's approval, and the client does not support elicitation"
		if allow {
			want = "wiped"
		}
		if !strings.Contains(got, want) || len(wiped) != map[bool]int{false: 0, true: 1}[allow] {
			t.Errorf("allow %v: value %q (wiped %d), want %q", allow, got, len(wiped), want)
		}
	}
}

// The approval prompt shows the whole input legibly, or the call is
// declined without asking: a person who accepts whatever they are shown
// never approves text they could not see.
func TestApprovalPromptShowsWholeInput(t *testing.T) {
	relay := &Relay{}
	var wiped []string
	rt := approvalRuntime(t, relay, &wiped)
	var asked []string
	cs := servePipes(t, rt, Options{Relay: relay}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &sdk.ElicitResult{Action: "accept"}, nil
		},
	})
	wipe := func(input string) string {
		t.Helper()
		code := `try { return await tools.callValue("wipe", ` + input + `) } catch (e) { return "refused: " + e.message }`
		_, r := call(t, context.Background(), cs, "exec", map[string]string{"code": code})
		v, _ := r["value"].(string)
		return v
	}
	// Padding that the old 200-character cut ended inside.
	if got := wipe(`{disk: "sdb" + " ".repeat(300) + "-AND-ALL-OTHERS"}`); got != "wiped" {
		t.Fatalf("padded: %q", got)
	}
	if want := `{"disk":"sdb⟨300 spaces⟩-AND-ALL-OTHERS"}`; len(asked) != 1 || !strings.Contains(asked[0], want) {
		t.Errorf("padded: asked %q, want %s", asked, want)
	}
	// A right-to-left override, a zero-width space and a run of newlines.
	asked = nil
	wipe(`{disk: "sdb\u202e\u200b".repeat(2) + "\n".repeat(40)}`)
	if want := `{"disk":"sdb\u202e\u200bsdb\u202e\u200b⟨40 × \n⟩"}`; len(asked) != 1 || !strings.Contains(asked[0], want) {
		t.Errorf("invisible: asked %q, want %s", asked, want)
	}
	// Too long to show whole, or too deep: declined, the person never
	// asked, the model told why.
	asked, wiped = nil, nil
	for input, want := range map[string]string{
		`{disk: "sdb", why: "x y ".repeat(3000)}`:                   "it is too long to show the person whole (a 12023-byte view: 3831 bytes past the 8192 an approval shows would not be shown)",
		`{disk: JSON.parse("[".repeat(40) + "1" + "]".repeat(40))}`: "it nests deeper than 32 levels",
	} {
		if got := wipe(input); !strings.Contains(got, `was blocked before execution: its input cannot be shown for approval: `+want) {
			t.Errorf("%.40s: %q, want %q", input, got, want)
		}
	}
	if len(asked) != 0 || len(wiped) != 0 {
		t.Errorf("asked %q, wiped %q", asked, wiped)
	}
}

func TestInputView(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"password":"p","nested":{"Authorization":"Bearer x","ok":1,"author":"Ada"}}`, `{"password":⟨hidden⟩,"nested":{"Authorization":⟨hidden⟩,"ok":1,"author":"Ada"}}`},
		{`{"apiKey":{"a":[1,2]},"keys":["k1"],"keyword":"w","session_name":"s"}`, `{"apiKey":⟨hidden⟩,"keys":["k1"],"keyword":"w","session_name":"s"}`},
		{`{"s":"` + strings.Repeat("é", 300) + `"}`, `{"s":"⟨300 × é⟩"}`},
		{`{"id":"SHP-1` + strings.Repeat(" ", 300) + `-AND-ALL-OTHERS"}`, `{"id":"SHP-1⟨300 spaces⟩-AND-ALL-OTHERS"}`},
		{`{"a":"x       y","b":"` + strings.Repeat("=", 15) + `"}`, `{"a":"x       y","b":"` + strings.Repeat("=", 15) + `"}`},
		{`["\u0000\t\u001b[31m\u0085","\u00a0\u2028\ufeff\u00ad","\ud83d\ude00\u200d","\udb40\udc41","⟨9 spaces⟩"]`,
			`["\u0000\t\u001b[31m\u0085","\u00a0\u2028\ufeff\u00ad","😀\u200d","\udb40\udc41","\u27e89 spaces⟩"]`},
		{`["a\u0301\u0302\u0303\u0304","\u3164\u2800\ufe0f"]`, "[\"a\u0301\u0302\\u0303\\u0304\",\"\\u3164\\u2800\\ufe0f\"]"},
		{`{"n":12345678901234567890123,"f":1e400,"z":-0.0,"b":[true,false,null]}`, `{"n":12345678901234567890123,"f":1e400,"z":-0.0,"b":[true,false,null]}`},
		{`{"q":"a\"b\\c"}`, `{"q":"a\"b\\c"}`},
		{` `, `no input`},
		{`[[[[[[[[1]]]]]]]]`, `[[[[[[[[1]]]]]]]]`},
	} {
		if got, err := inputView(json.RawMessage(c.in)); err != nil || got != c.want {
			t.Errorf("inputView(%.40s) = %s, %v\nwant %s", c.in, got, err, c.want)
		}
	}
	for in, want := range map[string]string{
		`not json`:                    "it is not one JSON value",
		`{"a":1} {"b":2}`:             "it is not one JSON value",
		`{"id":"SHP-1","id":"ALL"}`:   `it repeats the key "id"`,
		`{"apiKey":"x","apiKey":"y"}`: `it repeats the key "apiKey"`,
		strings.Repeat("[", 33) + strings.Repeat("]", 33): "it nests deeper than 32 levels",
		`["` + strings.Repeat("ab", 5000) + `"]`:          "(a 10004-byte view: 1812 bytes past the 8192",
	} {
		if got, err := inputView(json.RawMessage(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("inputView(%.40s) = %s, %v, want an error with %q", in, got, err, want)
		}
	}
}

func TestSecretKey(t *testing.T) {
	for k, want := range map[string]bool{
		"api_key": true, "apiKey": true, "APIKey": true, "API_KEY": true, "x-api-key": true, "apikey": true, "APIKEY": true,
		"token": true, "accessToken": true, "ACCESSTOKEN": true, "refresh_token": true, "password": true, "userPassword": true,
		"secret": true, "client_secret": true, "Authorization": true, "auth": true, "basicAuth": true, "cookie": true,
		"credentials": true, "private_key": true, "privateKey": true, "session_id": true, "sessionToken": true, "token2": true,
		"author": false, "keys": false, "key": false, "keyword": false, "session_name": false, "authorName": false,
		"monkey": false, "private": false, "sort_key": false, "passenger": false, "bypass": false, "tokenizer": false, "id": false,
	} {
		if got := secretKey(k); got != want {
			t.Errorf("secretKey(%q) = %v, want %v", k, got, want)
		}
	}
}

// viewNote is one of the view's notes of a run.
var viewNote = regexp.MustCompile(`⟨(\d+) (?:spaces|× (\\u[0-9a-f]{4}\\u[0-9a-f]{4}|\\u[0-9a-f]{4}|\\.|.))⟩`)

// Any input is refused or has a view that is legible (no invisible
// character, no long blank run, at most maxView bytes) and means exactly
// the input: with its notes expanded, it is JSON equal to the input.
func FuzzInputView(f *testing.F) {
	for _, s := range []string{`{"id":"SHP-1` + strings.Repeat(" ", 300) + `-AND"}`, `["\u202e\u200b\u00a0\t\n"]`, `{"a":{"b":[1,"⟨2 spaces⟩"]}}`,
		`"a\u0301\u0301\u0301\u0301"`, `[1e400, -0, "\ud800"]`, `"\udb40\udc41\udb40\udc41"`, `{"a":1,"a":2}`,
		`"` + strings.Repeat(`\"`, 20) + strings.Repeat(`\u200b`, 9) + strings.Repeat("⟩", 30) + `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		view, err := inputView(json.RawMessage(in))
		if err != nil || view == "no input" || strings.Contains(view, "⟨hidden⟩") {
			return
		}
		if len(view) > maxView || strings.Contains(view, "        ") {
			t.Fatalf("view %q", view)
		}
		for _, r := range view {
			if r != ' ' && (!unicode.IsGraphic(r) || unicode.Is(unicode.Zs, r)) {
				t.Fatalf("view %q shows %U", view, r)
			}
		}
		expanded := viewNote.ReplaceAllStringFunc(view, func(n string) string {
			m := viewNote.FindStringSubmatch(n)
			count, _ := strconv.Atoi(m[1])
			if m[2] == "" {
				return strings.Repeat(" ", count)
			}
			return strings.Repeat(m[2], count)
		})
		want, _ := decodeNumbers(in)
		if got, err := decodeNumbers(expanded); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("view %q of %q means %v (%v), want %v", view, in, got, err, want)
		}
	})
}

// decodeNumbers decodes JSON keeping numbers as written, as the view does.
func decodeNumbers(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
