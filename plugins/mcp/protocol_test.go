package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A downstream server that speaks only one revision is reached at it: the
// client asks for protocolVersion and accepts every older revision a server
// answers with, which its later HTTP requests carry in MCP-Protocol-Version.
func TestDownstreamRevisions(t *testing.T) {
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			url, header := oneRevisionServer(t, v)
			c := start(t, &Options{Servers: map[string]ServerConfig{"old": {URL: url}}})
			run := runtime(t, c, `{"enabled": true, "timeoutMs": 20000}`)
			got := value(t, run, `try { return { v: (await MCP.old.which({})).content[0].text } } catch (e) { return { v: e.message } }`)
			if got["v"] != "answered" {
				t.Fatalf("call: %v", got)
			}
			if h := header(); h != v {
				t.Errorf("the call carried MCP-Protocol-Version %q, want %s", h, v)
			}
		})
	}
}

// A server that speaks only 2026-07-28 (no initialize, no sessions) cannot
// serve codemode's session client: it is reported down with the reason and
// retried, never hung on.
func TestDownstreamSessionlessOnlyServer(t *testing.T) {
	url, _ := oneRevisionServer(t, "2026-07-28")
	var log logBuffer
	c := start(t, &Options{Servers: map[string]ServerConfig{"modern": {URL: url}},
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), `server=modern`); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no warning about the server")
		}
	}
	if s := c.Servers(); len(s) != 1 || s[0].Up {
		t.Errorf("servers %+v, want modern down", s)
	}
	if l := log.String(); !strings.Contains(l, "MCP server down") || !strings.Contains(l, "initialized") {
		t.Errorf("log %q does not say why", l)
	}
}

// oneRevisionServer serves one tool, which, over streamable HTTP, speaking
// only revision v; header reports the MCP-Protocol-Version of its last
// tools/call.
func oneRevisionServer(t *testing.T, v string) (url string, header func() string) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "one", Version: "1"}, &sdk.ServerOptions{SupportedProtocolVersions: []string{v}})
	srv.AddTool(&sdk.Tool{Name: "which", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("answered")}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var mu sync.Mutex
	var last string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			var body bytes.Buffer
			body.ReadFrom(r.Body)
			if strings.Contains(body.String(), `"tools/call"`) {
				mu.Lock()
				last = r.Header.Get("Mcp-Protocol-Version")
				mu.Unlock()
			}
			r.Body = readCloser{&body}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL, func() string {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
}

type readCloser struct{ *bytes.Buffer }

func (readCloser) Close() error { return nil }
