package host

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/tool"
)

func BenchmarkExecTrivial(b *testing.B) {
	run := prepare(b, newRuntime(b, `true`, shipments()), RunOptions{})
	args := code("return 1")
	ctx := context.Background()
	for b.Loop() {
		if r := run.Exec(ctx, "c", args); r.Status != StatusCompleted {
			b.Fatal(r)
		}
	}
}

// BenchmarkExecNestedCalls is one cell making 1,000 tools.callValue calls to
// an in-process Go tool: one after another (each awaited before the next), or
// in 63 rounds of Promise.all over 16 (maxPendingToolCalls' default) and a
// last round of 8.
func BenchmarkExecNestedCalls(b *testing.B) {
	echo := tool.Tool{Name: "echo", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: 1}, nil
	}}
	run := prepare(b, newRuntime(b, `{"enabled": true, "timeoutMs": 60000}`, echo), RunOptions{})
	for _, bc := range []struct{ name, code string }{
		{"sequential", "let n = 0; for (let i = 0; i < 1000; i++) n += await tools.callValue('echo', {}); return n"},
		{"parallel", "let n = 0; for (let i = 0; i < 1000; i += 16) for (const v of await Promise.all(Array.from({ length: Math.min(16, 1000 - i) }, () => tools.callValue('echo', {})))) n += v; return n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args := code(bc.code)
			ctx := context.Background()
			start := time.Now()
			for b.Loop() {
				if r := run.Exec(ctx, "c", args); string(r.Value) != "1000" {
					b.Fatal(r)
				}
			}
			b.ReportMetric(float64(b.N)*1000/time.Since(start).Seconds(), "calls/s")
		})
	}
}

// BenchmarkExecNestedMCP is one cell making 1,000 sequential nested calls
// through the guest's namespaces: MCP.docs.echo(input), whose tool returns
// what plugins/mcp returns (content blocks as JSON bytes and the MCP result
// as Details), and tools.callValue of a core tool. allocs/call is the
// allocations of the whole exec divided by its calls: what one nested call
// costs the host (bench/RESULTS.md).
func BenchmarkExecNestedMCP(b *testing.B) {
	content := []json.RawMessage{json.RawMessage(`{"type":"text","text":"echo: x"}`)}
	mcpEcho := tool.Tool{Name: "echo", MCPServer: "docs", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			return tool.Result{Content: content, Details: map[string]any{"content": content, "structuredContent": map[string]any{"n": 1}}}, nil
		}}
	echo := tool.Tool{Name: "echo", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: 1}, nil
	}}
	run := prepare(b, newRuntime(b, `{"enabled": true, "timeoutMs": 60000}`, echo, mcpEcho), RunOptions{})
	for _, bc := range []struct{ name, code string }{
		{"mcp", "for (let i = 0; i < 1000; i++) await MCP.docs.echo({ text: 'x' }); return 1000"},
		{"callValue", "let n = 0; for (let i = 0; i < 1000; i++) n += await tools.callValue('echo', {}); return n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args := code(bc.code)
			ctx := context.Background()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if r := run.Exec(ctx, "c", args); string(r.Value) != "1000" {
					b.Fatal(r)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N*1000), "allocs/call")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*1000), "B/call")
		})
	}
}

func BenchmarkExecWaitRoundTrip(b *testing.B) {
	run := prepare(b, newRuntime(b, `true`, shipments()), RunOptions{})
	args := code("await yield_control('pause'); return 1")
	ctx := context.Background()
	for b.Loop() {
		r := run.Exec(ctx, "c", args)
		if r.Status != StatusWaiting {
			b.Fatal(r)
		}
		id, _ := json.Marshal(map[string]string{"runId": r.RunID})
		if w := run.Wait(ctx, id); w.Status != StatusCompleted {
			b.Fatal(w)
		}
	}
}

// BenchmarkExecCatalogSize is a trivial exec on catalogs of growing size, of
// core tools (each with its own input and output schema) or of MCP tools over
// four servers. The run is prepared once: this is the cost of a cell's setup.
func BenchmarkExecCatalogSize(b *testing.B) {
	for _, mix := range []string{"core", "mcp"} {
		for _, n := range []int{1, 10, 100, 1000, 10000} {
			b.Run(fmt.Sprintf("%s/tools=%d", mix, n), func(b *testing.B) {
				run := prepare(b, newRuntime(b, `true`, benchTools(mix, n)...), RunOptions{})
				args := code("return 1")
				for b.Loop() {
					if r := run.Exec(context.Background(), "c", args); r.Status != StatusCompleted {
						b.Fatal(r)
					}
				}
			})
		}
	}
}

// benchTools returns n tools of a mix: "core" tools with distinct schemas, or
// "mcp" tools of four servers.
func benchTools(mix string, n int) []tool.Tool {
	tools := make([]tool.Tool, n)
	for i := range tools {
		t := shipments()
		t.Name = fmt.Sprintf("list_shipments_%d", i)
		t.Description = fmt.Sprintf("List the shipments of depot %d with their payment state and weight.", i)
		t.InputSchema = json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"depot_%d":{"type":"string","description":"Which depot."},"limit":{"type":"integer","maximum":%d}},"required":["depot_%d"]}`, i, 10+i%90, i))
		if mix == "mcp" {
			t.MCPServer, t.OutputSchema = fmt.Sprintf("server%d", i%4), nil
		}
		tools[i] = t
	}
	return tools
}

// BenchmarkPrepare is Runtime.Prepare on a runtime of 10 or 10,000 core
// tools, as mcpserve calls it for every tools/call, and with one client tool.
func BenchmarkPrepare(b *testing.B) {
	for _, n := range []int{10, 10000} {
		for _, client := range []int{0, 1} {
			b.Run(fmt.Sprintf("tools=%d/client=%d", n, client), func(b *testing.B) {
				rt := newRuntime(b, `true`, benchTools("core", n)...)
				opts := RunOptions{ClientTools: benchTools("core", client)}
				b.ReportAllocs()
				for b.Loop() {
					prepare(b, rt, opts)
				}
			})
		}
	}
}

// BenchmarkExecSource is a one-line cell by the path its source takes
// through the check: plain JavaScript stays in the host process (the fast
// path); TypeScript and shell-shaped JavaScript need esbuild, which runs in
// a warm parser process.
func BenchmarkExecSource(b *testing.B) {
	run := prepare(b, newRuntime(b, `true`, shipments()), RunOptions{})
	for _, bc := range []struct{ name, lang, code string }{
		{"javascript", "javascript", "const x = 1; return x"},
		{"typescript", "typescript", "const x: number = 1; return x"},
		{"trailing-expression", "javascript", "const x = 1\nx"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args, _ := json.Marshal(map[string]string{"code": bc.code, "language": bc.lang})
			ctx := context.Background()
			for b.Loop() {
				if r := run.Exec(ctx, "c", args); string(r.Value) != "1" {
					b.Fatal(r)
				}
			}
		})
	}
}
