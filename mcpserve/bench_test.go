package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
	"github.com/seed11a79d2d/codemode/tool"
)

// BenchmarkServeStartup measures what `codemode serve` does before it can
// answer: start three stdio reference servers in parallel, build the
// runtime and register the run's surface. The per-server sub-benchmarks
// start one server alone, for comparison with the slowest.
func BenchmarkServeStartup(b *testing.B) {
	node, modules := peers(b)
	dir := b.TempDir()
	script := func(pkg string) string {
		return filepath.Join(modules, "@modelcontextprotocol", pkg, "dist", "index.js")
	}
	servers := map[string]mcp.ServerConfig{
		"everything": {Command: node, Args: []string{script("server-everything"), "stdio"}},
		"memory":     {Command: node, Args: []string{script("server-memory")}, Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "m.jsonl")}},
		"files":      {Command: node, Args: []string{script("server-filesystem"), dir}},
	}
	startup := func(b *testing.B, servers map[string]mcp.ServerConfig) {
		for b.Loop() {
			c, err := mcp.Start(context.Background(), &mcp.Options{Servers: servers})
			if err != nil {
				b.Fatal(err)
			}
			rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Sources: []tool.Source{c}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := newService(rt, &Options{}); err != nil {
				b.Fatal(err)
			}
			if len(c.Tools()) == 0 {
				b.Fatal("no tools")
			}
			b.StopTimer()
			rt.Close(context.Background())
			c.Close()
			b.StartTimer()
		}
	}
	b.Run("three", func(b *testing.B) { startup(b, servers) })
	for name, cfg := range servers {
		b.Run("only-"+name, func(b *testing.B) { startup(b, map[string]mcp.ServerConfig{name: cfg}) })
	}
}

// BenchmarkToolsCallExec is one tools/call of exec (`return 1`) through the
// MCP server over in-process pipes, on a runtime of 10 or 10,000 core tools.
func BenchmarkToolsCallExec(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			tools := make([]tool.Tool, n)
			for i := range tools {
				tools[i] = tool.Tool{Name: fmt.Sprintf("list_shipments_%d", i), Description: fmt.Sprintf("List the shipments of depot %d.", i),
					InputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"depot_%d":{"type":"string"}},"required":["depot_%d"]}`, i, i)),
					Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
						return tool.Result{Details: 1}, nil
					}}
			}
			rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Tools: tools})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { rt.Close(context.Background()) })
			f := &fixture{rt: rt}
			cs := f.stdio(b, nil)
			ctx := context.Background()
			for b.Loop() {
				if _, r := call(b, ctx, cs, "exec", map[string]string{"code": "return 1"}); r["status"] != "completed" {
					b.Fatal(r)
				}
			}
		})
	}
}
