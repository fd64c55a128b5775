package mcpserve

import (
	"context"
	"encoding/json"
	"io"
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

// A downstream server's elicitation and sampling requests reach the client
// whose cell made the call, and the answers reach the server; a client
// without the capability is named in the server's error.
func TestRelayElicitationAndSampling(t *testing.T) {
	relay := &Relay{}
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
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), rt, &Options{In: sr, Out: sw, Relay: relay, Logger: testLogger(t)})
	}()
	var asked []string
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "person", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		CreateMessageHandler: func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			asked = append(asked, req.Params.Messages[0].Content.(*sdk.TextContent).Text)
			return &sdk.CreateMessageResult{Model: "the-client-model", Role: "assistant", Content: &sdk.TextContent{Text: "It shipped."}}, nil
		},
	}).Connect(context.Background(), &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		<-done
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
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), rt, &Options{In: sr, Out: sw, Relay: relay, Logger: testLogger(t)})
	}()
	cs := connect(t, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	t.Cleanup(func() {
		cs.Close()
		<-done
	})
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
