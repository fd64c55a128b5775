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

// dialSession is an MCP session on url for the rest of the test.
func dialSession(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	cs, err := dialHTTP(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
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

// loadCell is one kind of cell a load session runs.
type loadCell struct{ kind, code string }

// loadCells are the three kinds of cell each session cycles through: trivial,
// nested-call heavy (64 calls of tool, 16 at a time) and suspending.
func loadCells(tool string) []loadCell {
	return []loadCell{
		{"trivial", `return 1`},
		{"nested", fmt.Sprintf(`let n = 0;
for (let b = 0; b < 4; b++) n += (await Promise.all(Array.from({ length: 16 }, () => tools.callValue(%q, {})))).length;
return n;`, tool)},
		{"suspending", `await yield_control("checkpoint");
return 2;`},
	}
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

// loadConfig gives a load cell the longest deadline there is: the cells
// take milliseconds alone, and a loaded 2-core machine must make them slow,
// never failed.
const loadConfig = `{"enabled": true, "timeoutMs": 60000, "maxPendingToolCalls": 16}`

// TestLoad: 200 MCP sessions over streamable HTTP on loopback, each cycling
// trivial, nested-call heavy and suspending cells (exec, then wait) for a
// bounded time. The only failures allowed are the ones the limits call for:
// a suspension refused because 64 runs are already parked, and a cell that
// found every cell slot taken until its deadline (a slow machine). It reports
// throughput, latency percentiles, peak goroutines and heap.
//
// CODEMODE_LOAD_SECONDS (default 10) and CODEMODE_LOAD_SESSIONS (default 200)
// select the profile; the results in bench/RESULTS.md name the command.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load profile")
	}
	w := newWorld(t)
	rt := newRuntime(t, w, loadConfig)
	url := serveHTTP(t, rt)
	smp := sample()
	r := runLoad(url, loadCells("count"), envInt("CODEMODE_LOAD_SESSIONS", 200), envInt("CODEMODE_LOAD_SECONDS", 10), nil)
	smp.end()
	r.report(t, strconv.FormatInt(smp.goroutines.Load(), 10), "peak heap in use", fmt.Sprintf("%d MiB", smp.heap.Load()>>20))
}

// loadSample is the latency of one completed cell, exec plus its wait.
type loadSample struct {
	kind string
	d    time.Duration
}

// loadRun is what runLoad measured.
type loadRun struct {
	sessions int
	cells    []loadCell
	elapsed  time.Duration // from the first connect to the end of the last cell
	lat      []loadSample  // one per completed cell
	refused  int64         // suspensions refused: 64 runs were already parked
	busy     int64         // cells that got no cell slot before their deadline
	failed   int64         // every other failure
	failures []string      // the first 20 of them
}

// runLoad connects sessions MCP clients to url; each cycles through cells,
// starting at a different one, until seconds have passed. hold, if not nil,
// runs once every session has finished its last cell but before any session
// closes.
func runLoad(url string, cells []loadCell, sessions, seconds int, hold func()) *loadRun {
	r := &loadRun{sessions: sessions, cells: cells}
	var mu sync.Mutex
	fail := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		if r.failed++; len(r.failures) < 20 {
			r.failures = append(r.failures, s)
		}
	}
	session := func(i int, deadline time.Time) *sdk.ClientSession {
		ctx := context.Background()
		cs, err := dialHTTP(ctx, url)
		if err != nil {
			fail(fmt.Sprintf("session %d: connect: %v", i, err))
			return nil
		}
		for n := i; time.Now().Before(deadline); n++ {
			cell := cells[n%len(cells)]
			t0 := time.Now()
			res, _, err := callResult(ctx, cs, "exec", map[string]any{"code": cell.code})
			if err == nil && res.Status == host.StatusWaiting {
				res, _, err = callResult(ctx, cs, "wait", map[string]any{"runId": res.RunID})
			}
			d := time.Since(t0)
			switch {
			case err != nil:
				fail(fmt.Sprintf("%s: %v", cell.kind, err))
			case res.Status == host.StatusFailed && res.Error == "too many suspended code mode runs.":
				mu.Lock()
				r.refused++
				mu.Unlock()
			case res.Status == host.StatusFailed && res.Reason == "busy":
				mu.Lock()
				r.busy++
				mu.Unlock()
			case res.Status != host.StatusCompleted:
				fail(fmt.Sprintf("%s: %s", cell.kind, describe(res)))
			default:
				mu.Lock()
				r.lat = append(r.lat, loadSample{cell.kind, d})
				mu.Unlock()
			}
		}
		return cs
	}
	start := time.Now()
	deadline := start.Add(time.Duration(seconds) * time.Second)
	var looped, closed sync.WaitGroup
	release := make(chan struct{})
	for i := range sessions {
		looped.Add(1)
		closed.Go(func() {
			cs := session(i, deadline)
			looped.Done()
			<-release
			if cs != nil {
				cs.Close()
			}
		})
	}
	looped.Wait()
	r.elapsed = time.Since(start)
	if hold != nil {
		hold()
	}
	close(release)
	closed.Wait()
	return r
}

// percentile is the p-th latency of the completed cells of kind ("" for all).
func (r *loadRun) percentile(kind string, p float64) time.Duration {
	var ds []time.Duration
	for _, s := range r.lat {
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

// report fails the test on any failure the limits do not call for, logs the
// tables bench/RESULTS.md shows (also written to $CODEMODE_LOAD_REPORT when
// set), and fails if no cell completed. goroutines and mem fill the last two
// columns; memHeader names the last.
func (r *loadRun) report(t *testing.T, goroutines, memHeader, mem string) {
	t.Helper()
	if r.failed > 0 {
		t.Errorf("%d unexpected failures; the first %d:\n%s", r.failed, len(r.failures), strings.Join(r.failures, "\n"))
	}
	n := len(r.lat)
	var b strings.Builder
	fmt.Fprintf(&b, "| sessions | seconds | cells completed | cells/s | refused (64-run cap) | busy (no cell slot) | p50 | p99 | peak goroutines | %s |\n|---|---|---|---|---|---|---|---|---|---|\n", memHeader)
	fmt.Fprintf(&b, "| %d | %.1f | %d | %.0f | %d | %d | %v | %v | %s | %s |\n\n", r.sessions, r.elapsed.Seconds(), n,
		float64(n)/r.elapsed.Seconds(), r.refused, r.busy, r.percentile("", .5), r.percentile("", .99), goroutines, mem)
	fmt.Fprintf(&b, "| cell | p50 | p99 |\n|---|---|---|\n")
	for _, c := range r.cells {
		fmt.Fprintf(&b, "| %s | %v | %v |\n", c.kind, r.percentile(c.kind, .5), r.percentile(c.kind, .99))
	}
	t.Log("\n" + b.String())
	if path := os.Getenv("CODEMODE_LOAD_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if n == 0 {
		t.Fatal("no cell completed")
	}
}
