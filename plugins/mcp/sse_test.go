package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseServer serves handler (503 while it is nil) on a loopback HTTP server
// and records the methods of the requests that carried X-Test: yes.
type sseServer struct {
	*httptest.Server
	handler atomic.Pointer[http.Handler]

	mu     sync.Mutex
	tagged map[string]bool
}

func newSSEServer(t *testing.T, srv *sdk.Server) *sseServer {
	s := &sseServer{tagged: map[string]bool{}}
	s.serve(srv)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Test") == "yes" {
			s.mu.Lock()
			s.tagged[r.Method] = true
			s.mu.Unlock()
		}
		h := s.handler.Load()
		if h == nil {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		(*h).ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close) // after the client's own cleanup, which ends its event stream
	return s
}

// serve switches to a fresh SSE handler over srv, or to 503s for nil, and
// drops every open connection.
func (s *sseServer) serve(srv *sdk.Server) {
	if srv == nil {
		s.handler.Store(nil)
	} else {
		var h http.Handler = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
		s.handler.Store(&h)
	}
	if s.Server != nil {
		s.CloseClientConnections()
	}
}

func TestSSE(t *testing.T) {
	hs := newSSEServer(t, newTestServer())
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": {URL: hs.URL, SSE: true, Headers: map[string]string{"X-Test": "yes"}}}})
	want := "[add_tool die echo environ fail picture pid rpc_error slow]"
	if got := fmt.Sprint(toolNames(c)); got != want {
		t.Fatalf("tools %s, want %s", got, want)
	}
	run := runtime(t, c, `true`)
	out := value(t, run, `
		const echo = (await MCP.test.echo({text: "over sse"})).structuredContent;
		const read = await MCP.test.resources.read({uri: "memo://one"});
		return {echo, text: read.contents[0].text};`)
	if got := fmt.Sprint(out); got != "map[echo:map[n:1 text:over sse] text:hello]" {
		t.Fatalf("over SSE: %s", got)
	}
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if !hs.tagged["GET"] || !hs.tagged["POST"] {
		t.Errorf("configured header seen on %v, want GET and POST", hs.tagged)
	}
}

// TestSSEReconnects: an SSE server that goes away is reported unavailable,
// and its tools come back when it does.
func TestSSEReconnects(t *testing.T) {
	hs := newSSEServer(t, newTestServer())
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": {URL: hs.URL, SSE: true}}})
	if len(c.Tools()) == 0 {
		t.Fatal("no tools")
	}
	version := c.Version()
	hs.serve(nil)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := c.MCPRequest(context.Background(), "test", "resources/list", nil)
		if err != nil && strings.Contains(err.Error(), "unavailable") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server still up after it went away: %v", err)
		}
	}
	next := sdk.NewServer(&sdk.Implementation{Name: "next", Version: "2"}, nil)
	next.AddTool(&sdk.Tool{Name: "after", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("back")}, nil
		})
	hs.serve(next)
	for deadline := time.Now().Add(20 * time.Second); fmt.Sprint(toolNames(c)) != "[after]"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("tools after the server came back: %v", toolNames(c))
		}
	}
	if c.Version() == version {
		t.Error("version did not move")
	}
	if got := callTool(t, c, "after", `{}`); !strings.Contains(got, "back") {
		t.Fatalf("after: %s", got)
	}
}

func TestSSENeedsURL(t *testing.T) {
	_, err := Start(context.Background(), &Options{Servers: map[string]ServerConfig{"s": {Command: "x", SSE: true}}})
	if err == nil || !strings.Contains(err.Error(), "sse needs a url") {
		t.Fatalf("got %v", err)
	}
}

// TestSSEStalledStreamIsBounded: an event stream that never names its
// message endpoint fails the attempt after CallTimeout, and Close returns.
func TestSSEStalledStreamIsBounded(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(hs.Close)
	logger, logs := captureLogs()
	c := start(t, &Options{Servers: map[string]ServerConfig{"stalled": {URL: hs.URL, SSE: true}}, CallTimeout: 100 * time.Millisecond, Logger: logger})
	if line := waitLog(t, logs, "MCP server down"); !strings.Contains(line, "deadline exceeded") {
		t.Errorf("warning: %s", line)
	}
	c.Close()
}
