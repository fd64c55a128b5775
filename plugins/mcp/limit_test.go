package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHugeHTTPResponseIsRefused: a streamable HTTP server that answers a
// call with a JSON body past maxMessageBytes fails that call with a clear
// error instead of being read whole; the server is reconnected and its next
// call answers.
func TestHugeHTTPResponseIsRefused(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "big", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "huge", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text(strings.Repeat("x", maxMessageBytes+1))}, nil
		})
	srv.AddTool(&sdk.Tool{Name: "small", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("ok")}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{JSONResponse: true}))
	t.Cleanup(hs.Close) // after the client's own cleanup, which ends its SSE stream
	c := start(t, &Options{Servers: map[string]ServerConfig{"big": {URL: hs.URL}}})
	run := runtime(t, c, `{"enabled": true, "timeoutMs": 20000}`)
	got := value(t, run, `try { await MCP.big.huge({}); return { v: "answered" } } catch (e) { return { v: e.message } }`)
	if v, _ := got["v"].(string); !strings.Contains(v, "larger than 16 MiB") {
		t.Fatalf("huge call: %v", got)
	}
	var last map[string]any
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		last = value(t, run, `try { return { v: (await MCP.big.small({})).content[0].text } } catch (e) { return { v: e.message } }`)
		if last["v"] == "ok" {
			return
		}
	}
	t.Fatalf("the server did not come back: %v", last)
}
