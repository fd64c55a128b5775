package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
)

// BenchmarkExecProcess runs `codemode exec -e 'return 1'` as a whole
// process, the way a user or a script starts it, with a warm compilation
// cache (the first run warms it). bench/RESULTS.md records the same
// measurement taken with hyperfine.
func BenchmarkExecProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "codemode")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		b.Fatalf("go build: %v", err)
	}
	cmd := func() *exec.Cmd { return exec.Command(bin, "exec", "-e", "return 1") }
	if out, err := cmd().CombinedOutput(); err != nil {
		b.Fatalf("warm-up run: %v\n%s", err, out)
	}
	for b.Loop() {
		if err := cmd().Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecInProcess is the same command without process start-up:
// loading the engine, the demo catalog and its MCP server, one cell.
func BenchmarkExecInProcess(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if code := run(ctx, []string{"exec", "-e", "return 1"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkExecDemoCatalog is a trivial exec through the host on the demo
// catalog (ten tools, two namespaces, an MCP server and its API files): what
// a cell's guest API costs to set up once the engine runs.
func BenchmarkExecDemoCatalog(b *testing.B) {
	ctx := context.Background()
	e, err := newEnv(ctx, "", withEngine, "", nil, slog.New(slog.DiscardHandler), io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close(ctx)
	run, err := e.rt.Prepare(host.RunOptions{})
	if err != nil {
		b.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"code": "return 1"})
	for b.Loop() {
		if r := run.Exec(ctx, "c", args); r.Status != host.StatusCompleted {
			b.Fatal(r)
		}
	}
}
