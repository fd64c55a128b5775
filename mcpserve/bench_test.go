package mcpserve

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
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
			rt, err := host.New(context.Background(), &host.Options{Config: []byte(`true`), Sources: []host.Source{c}})
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
