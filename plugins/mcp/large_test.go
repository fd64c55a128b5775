package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// largeServer is a real MCP server with n tools (tool_00000...), each
// echoing its arguments as structured content, over the SDK's in-memory
// transport: listing them takes n/1000 pages of tools/list.
func largeServer(t testing.TB, n int) ServerConfig {
	s := sdk.NewServer(&sdk.Implementation{Name: "large", Version: "1"}, nil)
	echo := func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: text(r.Params.Name), StructuredContent: r.Params.Arguments}, nil
	}
	for i := range n {
		s.AddTool(&sdk.Tool{Name: fmt.Sprintf("tool_%05d", i), Description: fmt.Sprintf("Tool number %d of the large server.", i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"}}}`)}, echo)
	}
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ServerConfig{Transport: ct}
}

func largeRun(t testing.TB, n int) *host.Run {
	c := start(t, &Options{Servers: map[string]ServerConfig{"big": largeServer(t, n)}})
	if got := len(c.Tools()); got != n {
		t.Fatalf("%d tools listed, want %d", got, n)
	}
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true, Timeout: 60000 * time.Millisecond}, Sources: []tool.Source{c}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{SessionKey: "s", SessionID: "s", RunID: "r"}})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func execValue(t testing.TB, run *host.Run, src string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"code": src})
	r := run.Exec(context.Background(), "c", b)
	if r.Status != host.StatusCompleted {
		t.Fatalf("%s: %+v", src, r)
	}
	return string(r.Value)
}

// A cell on a server with 100,000 tools sets up only what it mentions: it
// completes, calls a tool it names, one whose name it builds at run time,
// and finds one with MCP.$search.
func TestHundredThousandTools(t *testing.T) {
	run := largeRun(t, 100_000)
	for _, c := range []struct{ src, want string }{
		{`return 1`, `1`},
		{`return (await MCP.big.tool_54321({x: 1})).structuredContent`, `{"x":1}`},
		{`const name = "tool_" + (70000 + 7777); return (await MCP.big[name]({x: 2})).structuredContent`, `{"x":2}`},
		{`try { await MCP.big["tool_" + "x"]({}); } catch (e) { return e.message.startsWith('MCP.big has no tool "tool_x".'); }`, `true`},
		{`return (await MCP.$search("tool_99999", {limit: 1}))[0].path`, `"MCP.big.tool_99999"`},
		{`return Object.keys(MCP)`, `["big"]`},
	} {
		if got := execValue(t, run, c.src); got != c.want {
			t.Errorf("%s: got %s, want %s", c.src, got, c.want)
		}
	}
}

// BenchmarkHundredThousandTools is a trivial exec on a run whose only
// server has 100,000 tools.
func BenchmarkHundredThousandTools(b *testing.B) {
	run := largeRun(b, 100_000)
	for b.Loop() {
		execValue(b, run, "return 1")
	}
}
