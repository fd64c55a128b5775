package mcpserve

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// approvalRuntime has one tool, wipe, whose annotations mark it
// destructive, decided by relay.
func approvalRuntime(t *testing.T, relay *Relay, wiped *[]string) *host.Runtime {
	var mu sync.Mutex
	rt, err := host.New(context.Background(), &host.Options{
		Config: json.RawMessage(`true`),
		Tools: []host.Tool{{Name: "wipe", Description: "Wipe a disk.", Annotations: json.RawMessage(`{"destructiveHint":true}`),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"disk":{"type":"string"},"apiToken":{"type":"string"}}}`),
			Execute: func(ctx context.Context, c host.Call) (host.ToolResult, error) {
				mu.Lock()
				defer mu.Unlock()
				*wiped = append(*wiped, string(c.Input))
				return host.ToolResult{Details: "wiped"}, nil
			}}},
		Policy: host.Policy{ApproveDestructive: true},
		Hooks:  host.Hooks{Approve: relay.Approve},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
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
		!strings.Contains(asked[0], `"apiToken":"[hidden]"`) || strings.Contains(asked[0], "s3cr3t") {
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

func TestInputView(t *testing.T) {
	long := strings.Repeat("é", 300)
	for _, c := range []struct{ in, want string }{
		{`{"password":"p","nested":{"Authorization":"Bearer x","ok":1}}`, `{"nested":{"Authorization":"[hidden]","ok":1},"password":"[hidden]"}`},
		{`{"s":"` + long + `"}`, `{"s":"` + strings.Repeat("é", 100) + `…"}`},
		{`[[[[[[[[1]]]]]]]]`, `[[[[[["…"]]]]]]`},
		{`not json`, "an input that is not JSON"},
	} {
		if got := inputView(json.RawMessage(c.in)); got != c.want {
			t.Errorf("inputView(%.40s) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := inputView(json.RawMessage(`{"a":"` + strings.Repeat("x", 190) + `","b":"` + strings.Repeat("y", 190) + `","c":"` + strings.Repeat("z", 190) + `","d":"` + strings.Repeat("w", 190) + `","e":"` + strings.Repeat("v", 190) + `","f":"` + strings.Repeat("u", 190) + `"}`)); len(got) > viewBytes+len("…") {
		t.Errorf("view of %d bytes, past %d", len(got), viewBytes)
	}
}
