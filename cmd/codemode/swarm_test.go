package main

//lint:file-ignore SA1019 the sampling fallback is tested for as long as it is kept.

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// TestServeSwarmThroughSampling drives agents.run through a real codemode
// serve process (the demo setup, where tools.swarm is on): a Go SDK client's
// sampling handler answers one child as text, one as JSON for its schema,
// and refuses the third, which the cell sees as a SwarmAgentError; phases,
// logs and children arrive as progress notifications.
func TestServeSwarmThroughSampling(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildCommand(t)
	seen := make(chan string, 1024)
	client := sdk.NewClient(&sdk.Implementation{Name: "sampler", Version: "1"}, &sdk.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			prompt := req.Params.Messages[0].Content.(*sdk.TextContent).Text
			text := "summary of " + prompt
			switch prompt {
			case "refuse me":
				return nil, errors.New("no sampling for this one")
			case "rate SHP-101":
				if !strings.Contains(req.Params.SystemPrompt, `"required":["score"]`) {
					return nil, errors.New("no schema in the system prompt")
				}
				text = `{"score": 4}`
			}
			return &sdk.CreateMessageResult{Model: "test", Role: "assistant", Content: &sdk.TextContent{Text: text}}, nil
		},
		ProgressNotificationHandler: func(ctx context.Context, r *sdk.ProgressNotificationClientRequest) {
			seen <- r.Params.Message
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := connectServe(t, ctx, client, bin)
	const cell = `phase("fan out");
		const [text, rating, refused] = await Promise.all([
			agents.run("the release notes", { label: "writer" }),
			agents.run("rate SHP-101", { label: "rater", schema: { type: "object", properties: { score: { type: "integer" } }, required: ["score"] } }),
			agents.run("refuse me", { label: "refuser" }).catch((e) => [e.name, e.message]),
		]);
		log("all three back");
		return { text, rating, refused };`
	params := &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": cell}}
	params.SetProgressToken("swarm-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r host.Result
	json.Unmarshal(b, &r)
	var got map[string]any
	json.Unmarshal(r.Value, &got)
	want := map[string]any{
		"text":   "summary of the release notes",
		"rating": map[string]any{"score": 4.0},
		"refused": []any{"SwarmAgentError",
			`sub-agent "refuser" failed: the MCP client's sampling failed: calling "sampling/createMessage": no sampling for this one`},
	}
	if r.Status != host.StatusCompleted || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %s %s\nwant %v", r.Status, r.Error, r.Value, want)
	}
	awaitProgress(t, ctx, seen, "phase: fan out", "sub-agent writer finished in", "sub-agent rater finished in", "sub-agent refuser failed", "log: all three back")
}

// awaitProgress reads progress messages until each of want has begun one:
// they are sent before the result, but a client may handle them after it.
func awaitProgress(t *testing.T, ctx context.Context, seen <-chan string, want ...string) {
	t.Helper()
	var all []string
	for _, w := range want {
		for !slices.ContainsFunc(all, func(m string) bool { return strings.HasPrefix(m, w) }) {
			select {
			case m := <-seen:
				all = append(all, m)
			case <-ctx.Done():
				t.Fatalf("no progress %q in:\n%s", w, strings.Join(all, "\n"))
			}
		}
	}
}

// Without the demo plugin, codemode exec has no one to run a child.
func TestExecSwarmWithoutAgents(t *testing.T) {
	cfg := writeFile(t, "c.json5", `{ tools: { codeMode: true, swarm: true }, plugins: { tracker: true } }`)
	stdout, stderr, code := cli(t, "", "exec", "--config", cfg, "-e", `return await agents.run("p").catch((e) => e.name + ": " + e.message)`)
	rs := results(t, stdout)
	if code != 0 || !strings.Contains(string(rs[0].Value), "SwarmAgentError: sub-agent failed: codemode exec runs sub-agents with tools.swarm.provider or the demo plugin") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	// And with tools.swarm absent there is no agents global at all.
	cfg = writeFile(t, "d.json5", `{ tools: { codeMode: true }, plugins: { demo: true } }`)
	stdout, _, _ = cli(t, "", "exec", "--config", cfg, "-e", `return [typeof agents, typeof phase, typeof log]`)
	if rs := results(t, stdout); string(rs[0].Value) != `["undefined","undefined","undefined"]` {
		t.Fatalf("%s", stdout)
	}
}

func TestDemoValue(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"integer","minimum":3},"b":{"enum":["x","y"]},"c":{"type":"string"}},"required":["a","b"]}`, `{"a":3,"b":"x"}`},
		{`{"type":"array","items":{"type":"boolean"},"minItems":1e300}`, `[false,false,false]`},
		{`{"type":"array","minItems":-4}`, `[]`},
		{`{"anyOf":[{"type":"null"},{"type":"string"}]}`, `null`},
		{`{"type":"string","minLength":6}`, `"demooo"`},
		{`{"type":"number","exclusiveMinimum":0.5,"maximum":1}`, `1`},
		{`{}`, `"demo"`},
	} {
		var s any
		json.Unmarshal([]byte(c.schema), &s)
		if b, _ := json.Marshal(demoValue(s, 0)); string(b) != c.want {
			t.Errorf("%s: %s, want %s", c.schema, b, c.want)
		}
	}
}
