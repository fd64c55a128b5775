package mcpserve

//lint:file-ignore SA1019 the relay of deprecated sampling and logging is tested for as long as it is kept.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
	"github.com/seed11a79d2d/codemode/tool"
)

// askingServer is a downstream server whose tools ask its client: ask
// elicits a name, summarize samples a model.
func askingServer(t *testing.T) mcp.ServerConfig { return reportingServer(t, nil) }

// reportingServer is askingServer whose report tool, after its progress and
// log messages, waits until seen is closed: a notification that comes after
// its call ended is rightly dropped, so the test must keep the call open.
func reportingServer(t *testing.T, seen <-chan struct{}) mcp.ServerConfig {
	s := sdk.NewServer(&sdk.Implementation{Name: "asking", Version: "1"}, nil)
	reply := func(v any, err error) (*sdk.CallToolResult, error) {
		if err != nil {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}, StructuredContent: v}, nil
	}
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "ask", InputSchema: obj}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return reply(nil, err)
		}
		return reply(map[string]any{"action": res.Action, "content": res.Content}, nil)
	})
	s.AddTool(&sdk.Tool{Name: "summarize", InputSchema: obj}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.CreateMessage(ctx, &sdk.CreateMessageParams{MaxTokens: 50,
			Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "Summarize the release."}}}})
		if err != nil {
			return reply(nil, err)
		}
		return reply(map[string]any{"model": res.Model, "text": res.Content.(*sdk.TextContent).Text}, nil)
	})
	s.AddTool(&sdk.Tool{Name: "report", InputSchema: obj}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "halfway"})
		}
		req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Logger: "copier", Data: "copied 3 files"})
		req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "debug", Data: "too fine to pass"})
		if seen != nil {
			select {
			case <-seen:
			case <-ctx.Done():
			}
		}
		return reply(map[string]any{"done": true}, nil)
	})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return mcp.ServerConfig{Transport: ct}
}

// relayRuntime is a runtime whose one MCP server, down, asks its client,
// through relay.
func relayRuntime(t *testing.T, relay *Relay) *host.Runtime {
	return relayRuntimeOf(t, relay, askingServer(t))
}

func relayRuntimeOf(t *testing.T, relay *Relay, down mcp.ServerConfig) *host.Runtime {
	c, err := mcp.Start(context.Background(), &mcp.Options{Servers: map[string]mcp.ServerConfig{"down": down}, Relay: relay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Sources: []tool.Source{c}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

// A downstream server's elicitation and sampling requests reach the client
// whose cell made the call, and the answers reach the server; a client
// without the capability is named in the server's error.
func TestRelayElicitationAndSampling(t *testing.T) {
	relay := &Relay{}
	rt := relayRuntime(t, relay)
	var asked []string
	cs := servePipes(t, rt, Options{Relay: relay}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		CreateMessageHandler: func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			asked = append(asked, req.Params.Messages[0].Content.(*sdk.TextContent).Text)
			return &sdk.CreateMessageResult{Model: "the-client-model", Role: "assistant", Content: &sdk.TextContent{Text: "It shipped."}}, nil
		},
	})
	_, r := call(t, context.Background(), cs, "exec", map[string]string{"code": `
		const a = await MCP.down.ask({}), s = await MCP.down.summarize({});
		return [a.structuredContent, s.structuredContent];`})
	want := `[{"action":"accept","content":{"name":"Ada"}},{"model":"the-client-model","text":"It shipped."}]`
	if b, _ := json.Marshal(r["value"]); string(b) != want {
		t.Fatalf("got %s\n%v", b, r)
	}
	if strings.Join(asked, "|") != "Your name?|Summarize the release." {
		t.Errorf("the client was asked %q", asked)
	}

}

// A downstream call's progress reaches the exec call that made it, and its
// log messages the same client, named by server; below the level the
// downstream was asked for, nothing passes.
func TestRelayProgressAndLogging(t *testing.T) {
	relay := &Relay{}
	seen := make(chan struct{})
	rt := relayRuntimeOf(t, relay, reportingServer(t, seen))
	var mu sync.Mutex
	var progress, logs []string
	both := func() {
		if len(progress) > 0 && len(logs) > 0 {
			select {
			case <-seen:
			default:
				close(seen)
			}
		}
	}
	cs := servePipes(t, rt, Options{Relay: relay}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if strings.HasPrefix(req.Params.Message, "down:") { // not the heartbeat
				progress = append(progress, req.Params.Message)
				both()
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, fmt.Sprintf("%s %s %v", req.Params.Level, req.Params.Logger, req.Params.Data))
			both()
		},
	})
	if err := cs.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	params := &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{"code": `return (await MCP.down.report({})).structuredContent`}}
	params.SetProgressToken("upstream-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(progress, "|"); got != "down: halfway" {
		t.Errorf("progress %q (result %s)", got, contentText(res))
	}
	if got := strings.Join(logs, "|"); got != "info down/copier copied 3 files" {
		t.Errorf("log messages %q", got)
	}
}

// A client that declared neither capability: the server hears why, and the
// cell sees the server's error.
func TestRelayWithoutTheCapability(t *testing.T) {
	relay := &Relay{}
	rt := relayRuntime(t, relay)
	cs := servePipes(t, rt, Options{Relay: relay}, &sdk.ClientOptions{})
	_, r := call(t, context.Background(), cs, "exec", map[string]string{"code": `
		const a = await MCP.down.ask({}), s = await MCP.down.summarize({});
		return [a.isError, a.content[0].text, s.content[0].text];`})
	b, _ := json.Marshal(r["value"])
	for _, want := range []string{"true", "does not support elicitation", "does not support sampling"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %q in %s", want, b)
		}
	}
}

// A downstream server's resources and prompts reach the client, named after
// their server; the policy refuses what it denies.
func TestResourcesAndPromptsPassThrough(t *testing.T) {
	down := sdk.NewServer(&sdk.Implementation{Name: "docs", Version: "1"}, nil)
	down.AddResource(&sdk.Resource{URI: "memo://one", Name: "one", MIMEType: "text/plain"},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "memo://one", MIMEType: "text/plain", Text: "the memo"}}}, nil
		})
	down.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "memo://{id}", Name: "memo"},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "memo at " + req.Params.URI}}}, nil
		})
	down.AddPrompt(&sdk.Prompt{Name: "brief", Arguments: []*sdk.PromptArgument{{Name: "topic", Required: true}}},
		func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Brief on " + req.Params.Arguments["topic"]}}}}, nil
		})
	down.AddTool(&sdk.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := down.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c, err := mcp.Start(context.Background(), &mcp.Options{Servers: map[string]mcp.ServerConfig{"docs": {Transport: ct}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, deny := range []bool{false, true} {
		var policy host.Policy
		if deny {
			policy.Deny = []string{"mcp:docs:resources/read"}
		}
		rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Sources: []tool.Source{c}, Policy: &policy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close(context.Background()) })
		cs := (&fixture{rt: rt}).stdio(t, nil)
		ctx := context.Background()
		rs, err := cs.ListResources(ctx, nil)
		if err != nil || len(rs.Resources) != 1 || rs.Resources[0].Name != "docs/one" || rs.Resources[0].URI != "memo://one" {
			t.Fatalf("resources: %v %+v", err, rs)
		}
		read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "memo://one"})
		switch {
		case deny && (err == nil || !strings.Contains(err.Error(), "mcp:docs:resources/read is not allowed")):
			t.Errorf("a denied read: %v", err)
		case !deny && (err != nil || read.Contents[0].Text != "the memo"):
			t.Errorf("read: %v %+v", err, read)
		}
		ts, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(ts.ResourceTemplates) != 1 || ts.ResourceTemplates[0].Name != "docs/memo" || ts.ResourceTemplates[0].URITemplate != "memo://{id}" {
			t.Fatalf("resource templates: %v %+v", err, ts)
		}
		if !deny {
			read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "memo://7"})
			if err != nil || read.Contents[0].Text != "memo at memo://7" {
				t.Errorf("read through a template: %v %+v", err, read)
			}
			_, r := call(t, ctx, cs, "exec", map[string]string{"code": `return (await MCP.docs.resources.templates()).resourceTemplates.map(t => t.uriTemplate)`})
			if b, _ := json.Marshal(r["value"]); string(b) != `["memo://{id}"]` {
				t.Errorf("templates in a cell: %s %v", b, r)
			}
		}
		ps, err := cs.ListPrompts(ctx, nil)
		if err != nil || len(ps.Prompts) != 1 || ps.Prompts[0].Name != "docs/brief" {
			t.Fatalf("prompts: %v %+v", err, ps)
		}
		got, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "docs/brief", Arguments: map[string]string{"topic": "the release"}})
		if err != nil || got.Messages[0].Content.(*sdk.TextContent).Text != "Brief on the release" {
			t.Fatalf("prompt: %v %+v", err, got)
		}
	}
}
