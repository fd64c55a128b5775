package reliability

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/mcpserve"
)

// urlCatcher is a slog handler that keeps the URL mcpserve logs on start.
type urlCatcher struct{ url chan string }

func (u urlCatcher) Enabled(context.Context, slog.Level) bool { return true }
func (u urlCatcher) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url" {
			select {
			case u.url <- a.Value.String():
			default:
			}
		}
		return true
	})
	return nil
}
func (u urlCatcher) WithAttrs([]slog.Attr) slog.Handler { return u }
func (u urlCatcher) WithGroup(string) slog.Handler      { return u }

// serveHTTP serves rt with mcpserve over streamable HTTP on a loopback port
// and returns its URL; cleanup stops the server.
func serveHTTP(t testing.TB, rt *host.Runtime) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	u := urlCatcher{url: make(chan string, 1)}
	done := make(chan error, 1)
	go func() {
		done <- mcpserve.Serve(ctx, rt, &mcpserve.Options{HTTPAddr: "127.0.0.1:0", Logger: slog.New(u)})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	select {
	case url := <-u.url:
		return url
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("mcpserve did not log its URL")
	}
	return ""
}

func dialHTTP(ctx context.Context, url string) (*sdk.ClientSession, error) {
	return sdk.NewClient(&sdk.Implementation{Name: "load", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: 1}, nil)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// loadCells are the three kinds of cell each session cycles through.
var loadCells = []struct{ kind, code string }{
	{"trivial", `return 1`},
	{"nested", `let s = 0;
for (let b = 0; b < 4; b++) for (const v of await Promise.all(Array.from({ length: 16 }, () => tools.callValue("count", {})))) s += v;
return s;`},
	{"suspending", `await yield_control("checkpoint");
return 2;`},
}

// sampler records peak goroutines and heap while a test runs.
type sampler struct {
	goroutines atomic.Int64
	heap       atomic.Uint64
	stop       chan struct{}
	done       chan struct{}
}

func sample() *sampler {
	s := &sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if g := int64(runtime.NumGoroutine()); g > s.goroutines.Load() {
				s.goroutines.Store(g)
			}
			if m.HeapInuse > s.heap.Load() {
				s.heap.Store(m.HeapInuse)
			}
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *sampler) end() { close(s.stop); <-s.done }

// TestLoad: 200 MCP sessions over streamable HTTP on loopback, each cycling
// trivial, nested-call heavy and suspending cells (exec, then wait) for a
// bounded time. The only failures allowed are the ones the limits call for:
// a suspension refused because 64 runs are already parked. It reports
// throughput, latency percentiles, peak goroutines and heap.
//
// CODEMODE_LOAD_SECONDS (default 10) and CODEMODE_LOAD_SESSIONS (default 200)
// select the profile; the results in bench/RESULTS.md name the command.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load profile")
	}
	seconds, sessions := envInt("CODEMODE_LOAD_SECONDS", 10), envInt("CODEMODE_LOAD_SESSIONS", 200)
	w := newWorld(t)
	rt := newRuntime(t, w, `{"enabled": true, "timeoutMs": 5000, "maxPendingToolCalls": 16}`)
	url := serveHTTP(t, rt)

	type sampleRec struct {
		kind string
		d    time.Duration
	}
	var (
		mu       sync.Mutex
		lat      []sampleRec
		failures []string
		refused  atomic.Int64
		cells    atomic.Int64
	)
	fail := func(s string) {
		mu.Lock()
		if len(failures) < 20 {
			failures = append(failures, s)
		}
		mu.Unlock()
	}
	smp := sample()
	start := time.Now()
	deadline := start.Add(time.Duration(seconds) * time.Second)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Go(func() {
			ctx := context.Background()
			cs, err := dialHTTP(ctx, url)
			if err != nil {
				fail(fmt.Sprintf("session %d: connect: %v", i, err))
				return
			}
			defer cs.Close()
			for n := i; time.Now().Before(deadline); n++ {
				cell := loadCells[n%len(loadCells)]
				t0 := time.Now()
				r, _, err := callResult(ctx, cs, "exec", map[string]any{"code": cell.code})
				if err == nil && r.Status == host.StatusWaiting {
					r, _, err = callResult(ctx, cs, "wait", map[string]any{"runId": r.RunID})
				}
				d := time.Since(t0)
				switch {
				case err != nil:
					fail(fmt.Sprintf("%s: %v", cell.kind, err))
				case r.Status == host.StatusFailed && r.Error == "too many suspended code mode runs.":
					refused.Add(1)
				case r.Status != host.StatusCompleted:
					fail(fmt.Sprintf("%s: %s", cell.kind, describe(r)))
				default:
					cells.Add(1)
					mu.Lock()
					lat = append(lat, sampleRec{cell.kind, d})
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	smp.end()
	if len(failures) > 0 {
		t.Errorf("%d+ unexpected failures:\n%s", len(failures), strings.Join(failures, "\n"))
	}
	pct := func(kind string, p float64) time.Duration {
		var ds []time.Duration
		for _, s := range lat {
			if kind == "" || s.kind == kind {
				ds = append(ds, s.d)
			}
		}
		if len(ds) == 0 {
			return 0
		}
		slices.Sort(ds)
		return ds[min(len(ds)-1, int(float64(len(ds))*p))].Round(100 * time.Microsecond)
	}
	var report strings.Builder
	fmt.Fprintf(&report, "| sessions | seconds | cells completed | cells/s | refused (64-run cap) | p50 | p99 | peak goroutines | peak heap in use |\n|---|---|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&report, "| %d | %.1f | %d | %.0f | %d | %v | %v | %d | %d MiB |\n\n", sessions, elapsed.Seconds(), cells.Load(),
		float64(cells.Load())/elapsed.Seconds(), refused.Load(), pct("", .5), pct("", .99), smp.goroutines.Load(), smp.heap.Load()>>20)
	fmt.Fprintf(&report, "| cell | p50 | p99 |\n|---|---|---|\n")
	for _, c := range loadCells {
		fmt.Fprintf(&report, "| %s | %v | %v |\n", c.kind, pct(c.kind, .5), pct(c.kind, .99))
	}
	t.Log("\n" + report.String())
	if path := os.Getenv("CODEMODE_LOAD_REPORT"); path != "" {
		os.WriteFile(path, []byte(report.String()), 0o644)
	}
	if cells.Load() == 0 {
		t.Fatal("no cell completed")
	}
}
