package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/tool"
)

// BenchmarkObservedExec is one tools/call of exec over in-process pipes,
// with the operating surface at each setting: bare (no observer, no log),
// off (what serve does without flags: the decision hooks and an info log
// line per leg, to io.Discard), metrics (--metrics), traces (--metrics and
// OTLP traces, every span sampled, batched to an exporter that drops them)
// and audit (--metrics --audit, with its fsync per leg). The cell is `return 1` (exec) or makes
// 100 nested calls (nested: divide by 100 for one call).
func BenchmarkObservedExec(b *testing.B) {
	cells := []struct{ name, code string }{
		{"exec", "return 1"},
		{"nested", `let n = 0; for (let i = 0; i < 100; i++) n += await tools.callValue("openclaw:core:add", {}); return n`},
	}
	for _, mode := range []string{"bare", "off", "metrics", "traces", "audit"} {
		for _, cell := range cells {
			b.Run(cell.name+"/"+mode, func(b *testing.B) {
				obs := &Observer{}
				hooks := tool.Hooks{}
				o := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
				if mode == "bare" {
					obs, o.Logger = nil, nil
				}
				if mode == "traces" {
					tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
					b.Cleanup(func() { tp.Shutdown(context.Background()) })
					obs.Tracer = tp
				}
				if mode != "bare" && mode != "off" {
					o.Metrics = ops.NewMetrics()
				}
				if mode == "audit" {
					a, err := ops.OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl"))
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { a.Close() })
					o.Audit = a
				}
				if obs != nil {
					hooks = obs.Hooks(hooks)
					o.Observer = obs
				}
				rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Hooks: hooks, Tools: []tool.Tool{{
					Name: "add", Description: "One.", InputSchema: json.RawMessage(`{"type":"object"}`),
					Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
						return tool.Result{Details: 1}, nil
					}}}})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { rt.Close(context.Background()) })
				cs := servePipes(b, rt, o, nil)
				ctx := context.Background()
				for b.Loop() {
					if _, r := call(b, ctx, cs, "exec", map[string]string{"code": cell.code}); r["status"] != "completed" {
						b.Fatal(r)
					}
				}
			})
		}
	}
}

// BenchmarkTraceNestedCall is what traces add to one nested call, alone:
// on, its span opened by the before-call hook, handed to the tool, closed
// with its record (batched to an exporter that drops it); off, the same
// observer calls without a tracer (the observer installs no before-call
// hook then).
func BenchmarkTraceNestedCall(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			obs := &Observer{}
			ctx := context.Background()
			if on {
				tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
				b.Cleanup(func() { tp.Shutdown(context.Background()) })
				obs.Tracer = tp
				_, leg := obs.tracer().Start(ctx, "codemode.exec")
				obs.tr.legs[callKey{"s", "mcp_call_1"}] = leg.SpanContext()
			}
			hooks := obs.Hooks(tool.Hooks{})
			e := tool.Event{ToolKind: tool.KindNested, ToolName: "add", ToolID: "openclaw:core:add", CallID: "c", ParentCallID: "mcp_call_1", Scope: tool.Scope{SessionID: "s"}}
			c := host.NestedCall{ID: "c", ToolID: e.ToolID, Start: time.Now()}
			for b.Loop() {
				if hooks.BeforeToolCall != nil {
					hooks.BeforeToolCall(ctx, e)
				}
				obs.CallContext(ctx, tool.Call{ID: "c", Scope: e.Scope})
				obs.endCall("s", c, "core", ops.DecisionAllowed, ops.OutcomeOK)
			}
		})
	}
}
