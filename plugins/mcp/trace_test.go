package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/tool"
)

// A call under a span gets a client span of its own, whose traceparent the
// server receives: in _meta over an in-process transport (as over stdio),
// in the header over HTTP, and not in _meta there. Requests under no span
// carry none.
func TestTraceContextReachesServers(t *testing.T) {
	meta := func() *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "meta", Version: "1"}, nil)
		s.AddTool(&sdk.Tool{Name: "meta", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			tp, _ := req.Params.Meta["traceparent"].(string)
			return &sdk.CallToolResult{Content: text(tp)}, nil
		})
		return s
	}
	ct, st := sdk.NewInMemoryTransports()
	ss, err := meta().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	var mu sync.Mutex
	var headers []string
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return meta() }, nil)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.Header.Get("traceparent"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(web.Close) // after the client, which start closes first

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	_, cell := tp.Tracer("test").Start(context.Background(), "cell")
	c := start(t, &Options{Servers: map[string]ServerConfig{"mem": {Transport: ct}, "web": {URL: web.URL}}, Tracer: tp,
		CallContext: func(ctx context.Context, call tool.Call) context.Context {
			if call.ID == "untraced" {
				return ctx
			}
			return trace.ContextWithSpan(ctx, cell)
		}})
	got := map[string]string{}
	for _, tl := range c.Tools() {
		for _, id := range []string{"traced", "untraced"} {
			res, err := tl.Execute(context.Background(), tool.Call{ID: id, Input: json.RawMessage(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			var block struct{ Text string }
			json.Unmarshal(res.Content[0], &block)
			got[tl.MCPServer+" "+id] = block.Text
		}
	}
	cell.End()
	spans := exp.GetSpans()
	var calls []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == "tools/call meta" {
			calls = append(calls, s)
		}
	}
	if len(calls) != 2 {
		t.Fatalf("%d downstream spans: %v", len(calls), spans)
	}
	want := map[string]bool{}
	for _, s := range calls {
		if s.Parent.SpanID() != cell.SpanContext().SpanID() || s.SpanKind != trace.SpanKindClient {
			t.Errorf("span %v: parent %s kind %v", s.Name, s.Parent.SpanID(), s.SpanKind)
		}
		want["00-"+s.SpanContext.TraceID().String()+"-"+s.SpanContext.SpanID().String()+"-01"] = true
	}
	if !want[got["mem traced"]] || got["mem untraced"] != "" {
		t.Errorf("_meta over the in-process transport: %q, %q; want one of %v", got["mem traced"], got["mem untraced"], want)
	}
	if got["web traced"] != "" {
		t.Errorf("_meta over HTTP: %q, want the header only", got["web traced"])
	}
	mu.Lock()
	defer mu.Unlock()
	n := 0
	for _, h := range headers {
		if h != "" {
			n++
			if !want[h] {
				t.Errorf("HTTP traceparent %q is not a downstream span's", h)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d HTTP requests carried a traceparent, want the traced call's: %v", n, headers)
	}
}
