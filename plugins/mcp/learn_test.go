package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/internal/redistest"
	"github.com/seed11a79d2d/codemode/redisstore"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// shapeServer's tools declare no output schema: files answers with JSON
// text, stat with structured content, both full of values that must never
// reach a shape; typed declares its output schema and is not learned.
func shapeServer(t *testing.T) string {
	srv := sdk.NewServer(&sdk.Implementation{Name: "shapes", Version: "1"}, nil)
	var n atomic.Int64
	obj := map[string]any{"type": "object"}
	srv.AddTool(&sdk.Tool{Name: "files", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		i := n.Add(1)
		body := fmt.Sprintf(`{"files":[{"name":"secret-%d.txt","size":%d}],"owner":"owner-%d@example.com"}`, i, 1000+i, i)
		if i%2 == 0 {
			body = fmt.Sprintf(`{"files":[{"name":"n%d","size":1,"mode":"0644"}],"owner":"x%d","next":"cursor-%d"}`, i, i, i)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: body}}}, nil
	})
	srv.AddTool(&sdk.Tool{Name: "stat", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: text("ok"), StructuredContent: map[string]any{"path": "/home/alice/plans", "bytes": 31337}}, nil
	})
	srv.AddTool(&sdk.Tool{Name: "typed", InputSchema: obj, OutputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("{}"), StructuredContent: map[string]any{"v": 1}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// dts starts a runtime over c and returns its server's declaration file,
// after running cell (when given) in a run of its own.
func dts(t *testing.T, c *Client, cell string) string {
	t.Helper()
	rt, err := host.New(context.Background(), &host.Options{CodeMode: hosttest.CodeMode(json.RawMessage(`{"enabled":true,"timeoutMs":20000}`)), Sources: []tool.Source{c}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	prepare := func() *host.Run {
		run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{SessionID: "s", RunID: "r"}})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	if cell != "" {
		value(t, prepare(), cell)
	}
	out := value(t, prepare(), `return { d: await API.read("mcp/s.d.ts") }`)
	return out["d"].(string)
}

const threeCalls = `for (let i = 0; i < 3; i++) { await MCP.s.files({}); await MCP.s.stat({}); await MCP.s.typed({}) } return {}`

// After three calls the declarations show what the tools returned, with
// keys some results lacked as optional, and no value from any result.
func TestLearnedShapesInTheDeclarations(t *testing.T) {
	url := shapeServer(t)
	c := start(t, &Options{Servers: map[string]ServerConfig{"s": {URL: url}}, Shapes: &store.MemoryShapes{}})
	before := dts(t, c, "")
	if strings.Contains(before, "observed") {
		t.Fatalf("a shape before any call:\n%s", before)
	}
	after := dts(t, c, threeCalls)
	for _, want := range []string{
		"@returns observed in 3 calls: JSON.parse(content[0].text) is { files: { mode?: string; name: string; size: number; }[]; next?: string; owner: string; }",
		"function files(input?: Record<string, never>): Promise<McpToolResult>;",
		"@returns observed in 3 calls: structuredContent is { bytes: number; path: string; }",
		"function stat(input?: Record<string, never>): Promise<McpToolResult & { structuredContent: { bytes: number; path: string; } }>;",
		"function typed(input?: Record<string, never>): Promise<McpToolResult>;",
	} {
		if !strings.Contains(after, want) {
			t.Errorf("declarations lack %q:\n%s", want, after)
		}
	}
	for _, v := range []string{"secret-", "example.com", "cursor-", "alice", "31337", "1001", "0644"} {
		if strings.Contains(after, v) {
			t.Errorf("a value (%s) in the declarations:\n%s", v, after)
		}
	}
}

// Learning off (no store) learns nothing.
func TestNoLearning(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"s": {URL: shapeServer(t)}}})
	if d := dts(t, c, threeCalls); strings.Contains(d, "observed") {
		t.Errorf("a shape without learning:\n%s", d)
	}
}

// A shape learned by one process is there for the next that shares the
// Redis store, before any call of its own.
func TestLearnedShapeSurvivesARestartWithRedis(t *testing.T) {
	url := redistest.Start(t)
	shapes := func() store.Shapes {
		s, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Key: []byte("0123456789abcdef0123456789abcdef"), Prefix: "learn:"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s.Shapes()
	}
	server := shapeServer(t)
	first := start(t, &Options{Servers: map[string]ServerConfig{"s": {URL: server}}, Shapes: shapes()})
	dts(t, first, threeCalls)
	first.Close()
	want := "structuredContent is { bytes: number; path: string; }"
	// The save is off the call's path: give it the time it needs.
	var d string
	for range 100 {
		second := start(t, &Options{Servers: map[string]ServerConfig{"s": {URL: server}}, Shapes: shapes()})
		if d = dts(t, second, ""); strings.Contains(d, want) {
			return
		}
		second.Close()
	}
	t.Errorf("the restarted client lacks %q:\n%s", want, d)
}

func TestShownCalls(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 3: 3, 4: 3, 5: 5, 9: 5, 10: 10, 19: 10, 20: 20, 49: 20, 50: 50, 120: 100, 999: 500, 1000: 1000, 25000: 20000} {
		if got := shownCalls(n); got != want {
			t.Errorf("shownCalls(%d) = %d, want %d", n, got, want)
		}
	}
}
