package reliability

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

var printCorpus = flag.Bool("corpus.print", false, "print each hostile cell's actual outcome")

// hostileCase is one file of testdata/hostile: a cell whose leading
// "// key: value" comment lines state the outcome.
//
//	status: completed | failed | waiting
//	code:   the public error code of a failed result
//	error:  a prefix of the error message
//	value:  the exact JSON value of a completed result
//	output: a prefix of the JSON of the result's output items
//	language: typescript to send the cell as TypeScript
//	mcp:    yes to also run it through mcpserve
//	swarm:  yes to run it with tools.swarm on and corpusAgent (swarm_test.go)
//	bug:    a known defect: the case is skipped unless CODEMODE_RELIABILITY_BUGS=1
//	wasmtime-code: the code on wasmtime, where its fixed native stack differs;
//	        "a | b" accepts either, for an outcome that races the deadline
type hostileCase struct {
	name, src string
	want      map[string]string
}

func loadCorpus(t testing.TB) []hostileCase {
	t.Helper()
	files, err := filepath.Glob("testdata/hostile/*.js")
	if err != nil {
		t.Fatal(err)
	}
	var out []hostileCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := hostileCase{name: strings.TrimSuffix(filepath.Base(f), ".js"), src: string(b), want: map[string]string{}}
		for _, line := range strings.Split(c.src, "\n") {
			rest, ok := strings.CutPrefix(line, "// ")
			if !ok {
				break
			}
			k, v, ok := strings.Cut(rest, ":")
			if !ok || strings.ContainsAny(k, " \t") {
				continue
			}
			c.want[k] = strings.TrimSpace(v)
		}
		if c.want["status"] == "" {
			t.Fatalf("%s: no status line", f)
		}
		out = append(out, c)
	}
	return out
}

// atDeadline reports whether the case's outcome is reaching the deadline (a
// timeout, a run that parks there, or one whose snapshot is too big to
// park): only those cells run under the corpus's short wall clock; every
// other one gets roomyTimeoutMs.
func (c hostileCase) atDeadline() bool {
	codes := c.want["code"] + " " + c.want[engineName+"-code"]
	return c.want["status"] == "waiting" || strings.Contains(codes, "timeout") ||
		strings.Contains(codes, "snapshot_limit_exceeded")
}

func (c hostileCase) args() json.RawMessage {
	in := map[string]string{"code": c.src}
	if l := c.want["language"]; l != "" {
		in["language"] = l
	}
	b, _ := json.Marshal(in)
	return b
}

// engineLeaks are goroutines of the corpus engine that outlive rt.Close.
var engineLeaks []goleak.Option

// bugsEnv set to 1 runs the cases and tests of known, reported defects.
const bugsEnv = "CODEMODE_RELIABILITY_BUGS"

// check compares a result with the case's expectations; it returns what
// differs, or "".
func (c hostileCase) check(r host.Result) string {
	var bad []string
	if string(r.Status) != c.want["status"] {
		bad = append(bad, "status "+string(r.Status))
	}
	w, ok := c.want["code"]
	if e, has := c.want[engineName+"-code"]; engineName != "" && has {
		w, ok = e, true
	}
	if ok && !slices.Contains(strings.Split(w, " | "), string(r.Code)) {
		bad = append(bad, "code "+string(r.Code))
	}
	if w, ok := c.want["error"]; ok && !strings.HasPrefix(r.Error, w) {
		bad = append(bad, "error "+r.Error)
	}
	if w, ok := c.want["value"]; ok && !sameJSON(r.Value, []byte(w)) {
		bad = append(bad, "value "+string(r.Value))
	}
	if w, ok := c.want["output"]; ok {
		b, _ := json.Marshal(r.Output)
		if !strings.HasPrefix(string(b), w) || loneSurrogate.Match(b) {
			bad = append(bad, "output "+string(b))
		}
	}
	if len(r.Error) > maxErrorBytes {
		bad = append(bad, fmt.Sprintf("error of %d bytes", len(r.Error)))
	}
	return strings.Join(bad, "; ")
}

// loneSurrogate finds a \uD800-\uDFFF escape: valid JSON text that strict
// parsers refuse, so no result may carry one.
var loneSurrogate = regexp.MustCompile(`(?i)\\ud[89a-f][0-9a-f]{2}`)

// maxErrorBytes bounds a failed result's message: a guest that throws a
// huge value must not get it all back.
const maxErrorBytes = 64 << 10

// sameJSON compares two JSON texts as values; got must also be free of
// lone-surrogate escapes, which decoding would otherwise hide.
func sameJSON(got, want []byte) bool {
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil {
		return false
	}
	return reflect.DeepEqual(g, w) && !loneSurrogate.Match(got)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// heapInUse returns the live heap after two collections.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The memory bounds of TestHostileCorpus, stated in README.md: with the
// runtime open, live heap after the corpus may exceed the warmed-up baseline
// by the engine's idle pool and caches (openRuntimeSlack); after Close it
// must be back within closedSlack of the heap before the runtime existed.
const (
	openRuntimeSlack = 96 << 20
	closedSlack      = 16 << 20
)

// resumeSlowPark waits on a run that parked with its calls settled too
// close to the deadline, which a loaded machine causes, when the cell is not
// meant to wait: the outcome under test is where the run ends. Each leg's
// output is kept.
func resumeSlowPark(run *host.Run, want string, r host.Result) host.Result {
	output := r.Output
	for i := 0; i < 5 && want != "waiting" && r.Status == host.StatusWaiting && r.Reason == "pending_tools"; i++ {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
		output = append(output, r.Output...)
	}
	r.Output = output
	return r
}

// TestHostileCorpus runs every cell of testdata/hostile against the host,
// each in a fresh run, eight at a time. Each must give exactly its stated
// outcome, no tool that no cell may reach may run, the host must still run a
// trivial cell, no goroutine may be left behind and the heap must come back.
func TestHostileCorpus(t *testing.T) {
	cases := loadCorpus(t)
	if len(cases) < 60 {
		t.Fatalf("corpus has %d cells, want at least 60", len(cases))
	}
	leaks := goleak.IgnoreCurrent()
	before := heapInUse()
	w := newWorld(t)
	eng := corpusEngine(t)
	sources := w.startMCP(t)
	// Runtimes by [swarm][roomy]: the cell's outcome decides its deadline.
	var rts [2][2]*host.Runtime
	for i, config := range []string{corpusConfig, corpusConfigWith(roomyTimeoutMs)} {
		rts[0][i] = newWorldRuntime(t, w, &host.Options{Sources: sources, CodeMode: hosttest.CodeMode(json.RawMessage(config)), Engine: eng})
		rts[1][i] = newSwarmRuntime(t, w, eng, config)
	}
	rt := rts[0][0]
	if r := prepare(t, rt, testScope).Exec(context.Background(), "warm", execArgs("return 1")); r.Status != host.StatusCompleted {
		t.Fatalf("warm-up: %s", describe(r))
	}
	warm := heapInUse()

	var mu sync.Mutex
	var report []string
	sem := make(chan struct{}, 8)
	t.Run("cells", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				if bug := c.want["bug"]; bug != "" && os.Getenv(bugsEnv) != "1" {
					t.Skip("BUG: " + bug)
				}
				crt := rts[b2i(c.want["swarm"] == "yes")][b2i(!c.atDeadline())]
				run := prepare(t, crt, tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s-" + c.name, RunID: "r-" + c.name})
				start := time.Now()
				r := run.Exec(context.Background(), "call_"+c.name, c.args())
				r = resumeSlowPark(run, c.want["status"], r)
				if r.Status == host.StatusWaiting {
					run.Abort() // a parked hostile run must not outlive its case
				}
				if *printCorpus {
					mu.Lock()
					report = append(report, c.name+": "+describe(r)+" in "+time.Since(start).Round(time.Millisecond).String())
					mu.Unlock()
				}
				if d := c.check(r); d != "" {
					t.Errorf("%s\n got: %s", d, describe(r))
				}
				if _, err := json.Marshal(r); err != nil {
					t.Errorf("result does not encode: %v", err)
				}
			})
		}
	})
	if *printCorpus {
		sort.Strings(report)
		t.Log("\n" + strings.Join(report, "\n"))
	}
	if n := w.secretHits.Load(); n != 0 {
		t.Errorf("unreachable tools ran %d times", n)
	}
	if r := prepare(t, rt, testScope).Exec(context.Background(), "after", execArgs("return 'healthy'")); string(r.Value) != `"healthy"` {
		t.Fatalf("host unhealthy after the corpus: %s", describe(r))
	}
	after := heapInUse()
	t.Logf("heap: %d MiB before the runtime, %d MiB warmed up, %d MiB after %d cells", before>>20, warm>>20, after>>20, len(cases))
	if after > warm+openRuntimeSlack {
		t.Errorf("heap %d MiB after the corpus, bound %d MiB", after>>20, (warm+openRuntimeSlack)>>20)
	}
	for _, r := range rts {
		r[0].Close(context.Background())
		r[1].Close(context.Background())
	}
	rts, rt = [2][2]*host.Runtime{}, nil // the heap check below must not count them
	w.mcp.Close()
	goleak.VerifyNone(t, append(engineLeaks, leaks)...)
	closed := heapInUse()
	t.Logf("heap: %d MiB after Close", closed>>20)
	if closed > before+closedSlack {
		t.Errorf("heap %d MiB after Close, bound %d MiB", closed>>20, (before+closedSlack)>>20)
	}
}
