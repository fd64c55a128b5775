package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

// fixture is a runtime with a few core tools and a direct-only one.
type fixture struct {
	rt        *host.Runtime
	tools     []tool.Tool
	started   chan struct{} // the sleep tool began
	cancelled chan struct{} // the sleep tool's context ended early
}

func newFixture(t testing.TB, config string) *fixture {
	f, err := buildFixture(config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.rt.Close(context.Background()) })
	return f
}

func buildFixture(config string) (*fixture, error) {
	f := &fixture{started: make(chan struct{}, 64), cancelled: make(chan struct{}, 64)}
	f.tools = []tool.Tool{
		{Name: "add", Description: "Add two numbers.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				var in struct{ A, B float64 }
				json.Unmarshal(c.Input, &in)
				return tool.Result{Details: in.A + in.B}, nil
			}},
		{Name: "sleep", Description: "Sleep for ms milliseconds.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"number"}}}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				var in struct{ MS int }
				json.Unmarshal(c.Input, &in)
				select {
				case f.started <- struct{}{}:
				default:
				}
				select {
				case <-time.After(time.Duration(in.MS) * time.Millisecond):
					return tool.Result{Details: map[string]int{"slept": in.MS}}, nil
				case <-ctx.Done():
					f.cancelled <- struct{}{}
					return tool.Result{}, ctx.Err()
				}
			}},
		{Name: "snapshot", Description: "Take a picture.", DirectOnly: true,
			InputSchema: json.RawMessage(`{"type":"object"}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				return tool.Result{Content: []json.RawMessage{json.RawMessage(`{"type":"image","data":"AAAA","mimeType":"image/png"}`)}}, nil
			}},
	}
	rt, err := host.New(context.Background(), &host.Options{CodeMode: hosttest.CodeMode(json.RawMessage(config)), Tools: f.tools})
	if err != nil {
		return nil, err
	}
	f.rt = rt
	return f, nil
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// stdio serves f over pipes and connects a Go SDK client to it.
func (f *fixture) stdio(t testing.TB, copts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), f.rt, &Options{In: sr, Out: sw, Logger: testLogger(t)})
	}()
	cs := connect(t, &sdk.IOTransport{Reader: cr, Writer: cw}, copts)
	t.Cleanup(func() {
		cs.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return cs
}

// http serves f over streamable HTTP on a loopback port; it returns the URL.
func (f *fixture) http(t testing.TB) string { return f.httpWith(t, &Options{}) }

// httpWith is http with options (Token, SessionIdle); the address and
// logger are its own.
func (f *fixture) httpWith(t testing.TB, o *Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Logger == nil {
		o.Logger = testLogger(t)
	}
	s, err := newService(f.rt, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.serveHTTP(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

func connect(t testing.TB, tr sdk.Transport, copts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	if copts == nil {
		copts = &sdk.ClientOptions{}
	}
	copts.Capabilities = &sdk.ClientCapabilities{}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, copts).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// call runs a tool and decodes the CodeModeResult from structuredContent.
func call(t testing.TB, ctx context.Context, cs *sdk.ClientSession, name string, args any) (*sdk.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r map[string]any
	json.Unmarshal(b, &r)
	return res, r
}

func contentText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestToolsAreTheRunSurface(t *testing.T) {
	f := newFixture(t, `true`)
	for name, cs := range map[string]*sdk.ClientSession{
		"stdio": f.stdio(t, nil),
		"http":  connect(t, &sdk.StreamableClientTransport{Endpoint: f.http(t)}, nil),
	} {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		run, _ := f.rt.Prepare(host.RunOptions{})
		want := map[string]host.ToolDefinition{}
		for _, d := range run.Tools() {
			want[d.Name] = d
		}
		if len(res.Tools) != len(want) {
			t.Fatalf("%s: %d tools, want %d", name, len(res.Tools), len(want))
		}
		for _, tool := range res.Tools {
			d, ok := want[tool.Name]
			if !ok || tool.Description != d.Description {
				t.Errorf("%s: tool %s differs from the run's definition", name, tool.Name)
			}
		}
	}
}

func TestExecAndDirectResults(t *testing.T) {
	f := newFixture(t, `true`)
	cs := f.stdio(t, nil)
	ctx := context.Background()
	res, r := call(t, ctx, cs, "exec", map[string]string{"code": `text("hi"); return await tools.callValue("openclaw:core:add", {a: 1, b: 2});`})
	if res.IsError || r["status"] != "completed" || r["value"] != 3.0 {
		t.Fatalf("exec: %+v %v", res, r)
	}
	if got := contentText(res); got != "completed\nhi\nvalue: 3" {
		t.Errorf("text rendering %q", got)
	}
	res, r = call(t, ctx, cs, "exec", map[string]string{"code": `throw new Error("boom")`})
	if !res.IsError || r["status"] != "failed" || !strings.HasPrefix(contentText(res), "failed (internal_error): ") {
		t.Errorf("failed exec: %v %q", r, contentText(res))
	}
	res, r = call(t, ctx, cs, "exec", nil)
	if !res.IsError || r["code"] != "invalid_input" {
		t.Errorf("exec without arguments: %v", r)
	}
	res, _ = call(t, ctx, cs, "snapshot", nil)
	if img, ok := res.Content[0].(*sdk.ImageContent); res.IsError || !ok || img.MIMEType != "image/png" {
		t.Errorf("direct-only result: %+v", res)
	}
}

func TestWaitIsScopedToTheSession(t *testing.T) {
	f := newFixture(t, parkConfig)
	a, b := f.stdio(t, nil), f.stdio(t, nil)
	ctx := context.Background()
	// The sleep outlasts the exec's deadline however late the cell made it.
	_, r := call(t, ctx, a, "exec", map[string]string{"code": `return await tools.callValue("openclaw:core:sleep", {ms: 3000});`})
	if r["status"] != "waiting" {
		t.Fatalf("exec: %v", r)
	}
	wait := map[string]any{"runId": r["runId"]}
	res, other := call(t, ctx, b, "wait", wait)
	if !res.IsError || other["error"] != "code mode run belongs to a different session." {
		t.Fatalf("wait from another session: %v", other)
	}
	for range 10 {
		_, r = call(t, ctx, a, "wait", wait)
		if r["status"] != "waiting" {
			break
		}
	}
	if r["status"] != "completed" || fmt.Sprint(r["value"]) != "map[slept:3000]" {
		t.Fatalf("wait from the owner: %v", r)
	}
}

func TestProgressNotifications(t *testing.T) {
	f := newFixture(t, `true`)
	var got atomic.Int64
	cs := f.stdio(t, &sdk.ClientOptions{ProgressNotificationHandler: func(ctx context.Context, r *sdk.ProgressNotificationClientRequest) {
		if r.Params.ProgressToken == "tok" {
			got.Add(1)
		}
	}})
	params := &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{"code": `
		await tools.callValue("openclaw:core:add", {a: 1, b: 1});
		return await tools.callValue("openclaw:core:sleep", {ms: 1100});`}}
	params.SetProgressToken("tok")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	// Two nested calls and at least one heartbeat; notifications are
	// asynchronous, so wait for the last one.
	deadline := time.Now().Add(liveness)
	for got.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got.Load() < 3 {
		t.Fatalf("%d progress notifications", got.Load())
	}
}

func TestClientCancellationAbortsTheCell(t *testing.T) {
	f := newFixture(t, `true`)
	cs := f.stdio(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{
			"code": `return await tools.callValue("openclaw:core:sleep", {ms: 8000});`}})
		errc <- err
	}()
	select {
	case <-f.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the nested call did not start")
	}
	cancel()
	select {
	case <-f.cancelled:
	case <-time.After(liveness):
		t.Fatal("the nested call was not cancelled")
	}
	if err := <-errc; err == nil {
		t.Fatal("cancelled call returned no error")
	}
}

func TestHTTPRefusesForeignHosts(t *testing.T) {
	f := newFixture(t, `true`)
	url := f.http(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"", "", http.StatusOK},
		{"evil.example:80", "", http.StatusForbidden},
		{"", "http://evil.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
			req.Header.Set("Sec-Fetch-Site", "cross-site")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("host %q origin %q: status %d, want %d", tc.host, tc.origin, resp.StatusCode, tc.want)
		}
	}
}

func TestListenDefaultsToLoopback(t *testing.T) {
	ln, err := listen("serve MCP over HTTP", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		t.Fatalf("listening on %v", ip)
	}
}
