package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/tool"
)

// BenchmarkObservedExec is one tools/call of exec over in-process pipes,
// with the operating surface at each setting: bare (no observer, no log),
// off (what serve does without flags: the decision hooks and an info log
// line per leg, to io.Discard), metrics (--metrics), and audit (--metrics
// --audit, with its fsync per leg). The cell is `return 1` (exec) or makes
// 100 nested calls (nested: divide by 100 for one call).
func BenchmarkObservedExec(b *testing.B) {
	cells := []struct{ name, code string }{
		{"exec", "return 1"},
		{"nested", `let n = 0; for (let i = 0; i < 100; i++) n += await tools.callValue("openclaw:core:add", {}); return n`},
	}
	for _, mode := range []string{"bare", "off", "metrics", "audit"} {
		for _, cell := range cells {
			b.Run(cell.name+"/"+mode, func(b *testing.B) {
				obs := &Observer{}
				hooks := tool.Hooks{}
				o := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
				if mode == "bare" {
					obs, o.Logger = nil, nil
				} else {
					hooks = obs.Hooks(hooks)
					o.Observer = obs
				}
				if mode == "metrics" || mode == "audit" {
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
