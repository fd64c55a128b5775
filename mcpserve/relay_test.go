package mcpserve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
)

// askingServer is a downstream server whose tools ask its client: ask
// elicits a name, summarize samples a model.
func askingServer(t *testing.T) mcp.ServerConfig {
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
	c, err := mcp.Start(context.Background(), &mcp.Options{Servers: map[string]mcp.ServerConfig{"down": askingServer(t)}, Relay: relay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	rt, err := host.New(context.Background(), &host.Options{Config: json.RawMessage(`true`), Sources: []host.Source{c}})
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
		rt, err := host.New(context.Background(), &host.Options{Config: json.RawMessage(`true`), Sources: []host.Source{c}, Policy: policy})
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
