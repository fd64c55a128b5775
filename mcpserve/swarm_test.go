package mcpserve

//lint:file-ignore SA1019 the sampling fallback is tested for as long as it is kept.

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

func swarmRuntime(t *testing.T, relay *Relay) *host.Runtime {
	rt, err := host.New(context.Background(), &host.Options{
		CodeMode: &host.Config{Enabled: true}, Swarm: &host.SwarmConfig{Enabled: true}, Agents: relay,
		Tools: []tool.Tool{{Name: "count", Description: "Return 1.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				return tool.Result{Details: 1}, nil
			}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

const swarmCell = `phase("fan out");
const [a, b] = await Promise.all([agents.run("say a", { label: "alpha", model: "small" }), agents.run("say b")]);
log("two answers");
const n = await agents.run("count", { label: "counter", schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } });
const failed = await agents.run("refuse", { label: "refuser" }).catch((e) => e.name + ": " + e.message);
return { a, b, n, failed };`

// TestSwarmThroughSampling: children are sampling requests on the call's
// client, with the label, the model hint, a bounded maxTokens and, for a
// schema, the schema in the system prompt; a refused sample is a
// SwarmAgentError; phases, logs and children reach the client as progress.
func TestSwarmThroughSampling(t *testing.T) {
	relay := &Relay{}
	var mu sync.Mutex
	var asked []*sdk.CreateMessageParams
	seen := make(chan string, 1024)
	cs := servePipes(t, swarmRuntime(t, relay), Options{Relay: relay}, &sdk.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			mu.Lock()
			asked = append(asked, req.Params)
			mu.Unlock()
			prompt := req.Params.Messages[0].Content.(*sdk.TextContent).Text
			text := "answer to " + prompt
			switch {
			case prompt == "refuse":
				return nil, errors.New("the person declined the sample")
			case prompt == "count" && len(req.Params.Messages) == 1:
				text = "It is seven."
			case prompt == "count":
				text = `{"n": 7}`
			}
			return &sdk.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &sdk.TextContent{Text: text}}, nil
		},
		ProgressNotificationHandler: func(ctx context.Context, r *sdk.ProgressNotificationClientRequest) {
			seen <- r.Params.Message
		},
	})
	params := &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{"code": swarmCell}}
	params.SetProgressToken("swarm")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r host.Result
	json.Unmarshal(b, &r)
	want := `{"a":"answer to say a","b":"answer to say b","failed":"SwarmAgentError: sub-agent \"refuser\" failed: the MCP client's sampling failed: calling \"sampling/createMessage\": the person declined the sample","n":{"n":7}}`
	if r.Status != host.StatusCompleted || string(r.Value) != want { // keys sorted: the value crossed as a map
		t.Fatalf("%s %s\n%s\nwant %s", r.Status, r.Error, r.Value, want)
	}
	// Notifications are sent before the result, but may be handled after it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var all []string
	for _, w := range []string{"phase: fan out", "log: two answers", "sub-agent alpha finished in", "sub-agent refuser failed"} {
		for !slices.ContainsFunc(all, func(m string) bool { return strings.HasPrefix(m, w) }) {
			select {
			case m := <-seen:
				all = append(all, m)
			case <-ctx.Done():
				t.Fatalf("no progress %q in:\n%s", w, strings.Join(all, "\n"))
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 5 {
		t.Fatalf("%d samples, want 5 (a, b, count twice, refuse)", len(asked))
	}
	for _, p := range asked {
		prompt := p.Messages[0].Content.(*sdk.TextContent).Text
		if p.MaxTokens != agentMaxTokens || !strings.HasPrefix(p.SystemPrompt, "You are a sub-agent") {
			t.Errorf("%s: maxTokens %d, system prompt %q", prompt, p.MaxTokens, p.SystemPrompt)
		}
		switch prompt {
		case "say a":
			if p.ModelPreferences == nil || p.ModelPreferences.Hints[0].Name != "small" || !strings.Contains(p.SystemPrompt, `as "alpha"`) {
				t.Errorf("label and model hint not passed: %+v %q", p.ModelPreferences, p.SystemPrompt)
			}
		case "count":
			if !strings.Contains(p.SystemPrompt, `"required":["n"]`) {
				t.Errorf("schema not in the system prompt: %q", p.SystemPrompt)
			}
			if len(p.Messages) == 3 && (p.Messages[1].Content.(*sdk.TextContent).Text != "It is seven." ||
				!strings.Contains(p.Messages[2].Content.(*sdk.TextContent).Text, "it is not JSON")) {
				t.Errorf("retry messages %+v", p.Messages)
			}
		}
	}
}

// TestSwarmWithoutSampling: a client that cannot sample fails every child
// with a message that says so.
func TestSwarmWithoutSampling(t *testing.T) {
	relay := &Relay{}
	cs := servePipes(t, swarmRuntime(t, relay), Options{Relay: relay}, &sdk.ClientOptions{})
	_, r := call(t, context.Background(), cs, "exec", map[string]string{"code": `try { await agents.run("p") } catch (e) { return e.name + ": " + e.message }`})
	want := "SwarmAgentError: sub-agent failed: the MCP client does not support sampling (sampling/createMessage), so it cannot run sub-agents"
	if r["value"] != want {
		t.Fatalf("%v", r)
	}
}
