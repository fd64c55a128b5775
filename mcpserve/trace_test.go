package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/tool"
)

// traced serves a runtime whose observer records spans in memory.
func traced(t *testing.T, content bool) (*sdk.ClientSession, *tracetest.InMemoryExporter, *lockedBuffer) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	obs := &Observer{Tracer: tp, TraceContent: content}
	f := &fixture{}
	rt, err := host.New(context.Background(), &host.Options{CodeMode: hosttest.CodeMode(json.RawMessage(parkConfig)), Hooks: obs.Hooks(tool.Hooks{}),
		Tools: []tool.Tool{{Name: "add", Description: "Add.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) { return tool.Result{Details: 3}, nil }}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	f.rt = rt
	logs := &lockedBuffer{}
	h, _ := ops.NewLogHandler(logs, "json", "info")
	url := f.httpWith(t, &Options{Observer: obs, Logger: slog.New(h)})
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	t.Cleanup(func() { cs.Close() })
	return cs, exp, logs
}

func spanNamed(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, s := range spans {
			names = append(names, s.Name)
		}
		t.Fatalf("%d spans %q in %v", len(found), name, names)
	}
	return found[0]
}

// A _meta.traceparent is continued; a wait that brings no trace context
// continues the trace of the leg that parked its run, links to it, and
// its nested call hangs under the wait's leg.
func TestTraceMetaAndWaitWithoutContext(t *testing.T) {
	cs, exp, logs := traced(t, false)
	ctx := context.Background()
	const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Meta: sdk.Meta{"traceparent": parent},
		Arguments: map[string]string{"code": `await yield_control("later"); return await tools.callValue("openclaw:core:add", {})`}})
	if err != nil {
		t.Fatal(err)
	}
	var parked map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &parked)
	if parked["status"] != "waiting" {
		t.Fatal(parked)
	}
	if _, r := call(t, ctx, cs, "wait", map[string]any{"runId": parked["runId"]}); r["status"] != "completed" {
		t.Fatal(r)
	}
	spans := exp.GetSpans()
	execReq, execLeg := spanNamed(t, spans, "tools/call exec"), spanNamed(t, spans, "codemode.exec")
	waitReq, waitLeg := spanNamed(t, spans, "tools/call wait"), spanNamed(t, spans, "codemode.wait")
	add := spanNamed(t, spans, "codemode.call openclaw:core:add")
	if execReq.SpanContext.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || execReq.Parent.SpanID().String() != "b7ad6b7169203331" {
		t.Errorf("exec request: trace %s parent %s", execReq.SpanContext.TraceID(), execReq.Parent.SpanID())
	}
	if waitReq.Parent.SpanID() != execLeg.SpanContext.SpanID() || waitReq.SpanContext.TraceID() != execReq.SpanContext.TraceID() {
		t.Errorf("wait request: parent %s, want the exec leg %s", waitReq.Parent.SpanID(), execLeg.SpanContext.SpanID())
	}
	if waitLeg.Parent.SpanID() != waitReq.SpanContext.SpanID() || add.Parent.SpanID() != waitLeg.SpanContext.SpanID() {
		t.Errorf("wait leg under %s, nested call under %s", waitLeg.Parent.SpanID(), add.Parent.SpanID())
	}
	if len(waitLeg.Links) != 1 || waitLeg.Links[0].SpanContext.SpanID() != execLeg.SpanContext.SpanID() {
		t.Errorf("wait leg links: %v", waitLeg.Links)
	}
	legs := 0
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		json.Unmarshal([]byte(line), &rec)
		if rec["msg"] == "cell leg" {
			legs++
			if rec["trace_id"] != "0af7651916cd43dd8448eb211c80319c" {
				t.Errorf("a leg's log line without its trace id: %s", line)
			}
		}
	}
	if legs != 2 {
		t.Errorf("%d leg lines:\n%s", legs, logs)
	}
	for _, kv := range add.Attributes {
		if kv.Key == "codemode.call.arguments" {
			t.Errorf("arguments in a span without TraceContent: %v", kv)
		}
	}
}

// With TraceContent, code and arguments are in spans, cut to 4 KiB however
// large the cell makes them.
func TestTraceContentIsBounded(t *testing.T) {
	cs, exp, _ := traced(t, true)
	big := strings.Repeat("x", 64<<10)
	code := `// ` + big + "\n" + `return await tools.callValue("openclaw:core:add", { pad: "` + big + `" })`
	if _, r := call(t, context.Background(), cs, "exec", map[string]string{"code": code}); r["status"] != "completed" {
		t.Fatal(r)
	}
	spans := exp.GetSpans()
	get := func(s tracetest.SpanStub, key attribute.Key) string {
		for _, kv := range s.Attributes {
			if kv.Key == key {
				return kv.Value.AsString()
			}
		}
		return ""
	}
	codeAttr := get(spanNamed(t, spans, "codemode.exec"), "codemode.cell.code")
	args := get(spanNamed(t, spans, "codemode.call openclaw:core:add"), "codemode.call.arguments")
	if !strings.HasPrefix(codeAttr, "// xxx") || len(codeAttr) != maxContentBytes || !strings.HasPrefix(args, `{"pad":"xxx`) || len(args) != maxContentBytes {
		t.Errorf("code attribute %d bytes, arguments %d bytes; want %d each", len(codeAttr), len(args), maxContentBytes)
	}
}

// A bad trace context is ignored, not an error: the request starts a trace
// of its own.
func TestTraceBadContextIgnored(t *testing.T) {
	cs, exp, _ := traced(t, false)
	for _, tp := range []string{"00-zz-yy-01", strings.Repeat("0", 1<<20), "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Meta: sdk.Meta{"traceparent": tp, "tracestate": strings.Repeat("k=v,", 1000)},
			Arguments: map[string]string{"code": "return 1"}})
		if err != nil || res.IsError {
			t.Fatalf("%.20s: %v %v", tp, err, res)
		}
	}
	for _, s := range exp.GetSpans() {
		if s.Name == "tools/call exec" && s.Parent.IsValid() {
			t.Errorf("a request under a bad context has a parent: %v", s.Parent)
		}
	}
}

// Calls whose records never come (their run was abandoned) cannot grow
// the observer: past the bound their spans are ended and dropped.
func TestTraceOpenCallsAreBounded(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	obs := &Observer{Tracer: tp}
	hooks := obs.Hooks(tool.Hooks{})
	_, leg := obs.tracer().Start(context.Background(), "codemode.exec")
	obs.tr.legs[callKey{"s", "mcp_call_1"}] = leg.SpanContext()
	const n = maxDecisions + 500
	for i := range n {
		hooks.BeforeToolCall(context.Background(), tool.Event{ToolKind: tool.KindNested, ToolID: "openclaw:core:add",
			CallID: fmt.Sprint("c", i), ParentCallID: "mcp_call_1", Scope: tool.Scope{SessionID: "s"}})
	}
	if len(obs.tr.calls) > maxDecisions {
		t.Errorf("%d open call spans kept, bound %d", len(obs.tr.calls), maxDecisions)
	}
	if got := len(exp.GetSpans()); got < n-maxDecisions {
		t.Errorf("%d spans ended, want the %d dropped", got, n-maxDecisions)
	}
}
