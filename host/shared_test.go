package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// replicas are two runtimes over the same tools and one store.Runs, as two
// processes behind a load balancer would be.
func replicas(t *testing.T, config string, store store.Runs, tools ...tool.Tool) (*Runtime, *Runtime) {
	t.Helper()
	mk := func(name string) *Runtime {
		return newRuntimeWith(t, &Options{Tools: tools, CodeMode: codeModeJSON(json.RawMessage(config)), Runs: store, Replica: name})
	}
	return mk("a"), mk("b")
}

func waitFor(run *Run, id string) Result {
	b, _ := json.Marshal(map[string]string{"runId": id})
	return run.Wait(context.Background(), b)
}

func TestSharedRunMovesBetweenReplicas(t *testing.T) {
	g := newGate()
	a, b := replicas(t, fmt.Sprintf(`{"enabled":true,"timeoutMs":%d}`, parkTimeoutMs), store.NewMemoryRuns(0), shipments(), g.tool())
	onA, onB := prepare(t, a, RunOptions{}), prepare(t, b, RunOptions{})

	// A yield parks on a and completes on b.
	r := exec(t, onA, `const n = (await tools.callValue("shipping_list", {})).length; await yield_control("turn"); return n * 2`)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	if r = waitFor(onB, r.RunID); r.Status != StatusCompleted || string(r.Value) != "6" {
		t.Fatalf("wait on b: %+v", r)
	}

	// A slow call runs on a; its outcome reaches the wait on b through the
	// store.
	r = exec(t, onA, `const v = await tools.callValue("slow_echo", {v: 41}); return v.v + 1`)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	<-g.calls
	id := r.RunID
	if r = waitFor(onB, id); r.Status != StatusWaiting {
		t.Fatalf("wait before the call settles: %+v", r)
	}
	g.open()
	r = waitFor(onB, id)
	for i := 0; r.Status == StatusWaiting && i < 5; i++ { // the outcome reached the store after this wait polled it
		r = waitFor(onB, id)
	}
	if r.Status != StatusCompleted || string(r.Value) != "42" {
		t.Fatalf("wait after: %+v", r)
	}
	if r = waitFor(onA, id); r.Status != StatusFailed || r.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("a second wait: %+v", r)
	}
	if err := a.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Waits racing on both replicas resume a run exactly once.
func TestSharedRunResumesOnce(t *testing.T) {
	var runs sync.Map
	count := tool.Tool{Name: "count_once", Description: "Count.", Execute: func(_ context.Context, c tool.Call) (tool.Result, error) {
		if _, dup := runs.LoadOrStore(string(c.Input), true); dup {
			t.Errorf("run %s resumed twice", c.Input)
		}
		return tool.Result{Details: 1}, nil
	}}
	a, b := replicas(t, roomy, store.NewMemoryRuns(0), count)
	onA, onB := prepare(t, a, RunOptions{}), prepare(t, b, RunOptions{})
	for i := range 20 {
		r := exec(t, onA, `const me = Math.random(); await yield_control("x"); return await tools.callValue("count_once", {me})`)
		if r.Status != StatusWaiting {
			t.Fatalf("%d: %+v", i, r)
		}
		results := make(chan Result, 2)
		for _, run := range []*Run{onA, onB} {
			go func() { results <- waitFor(run, r.RunID) }()
		}
		first, second := <-results, <-results
		if first.Status == StatusCompleted == (second.Status == StatusCompleted) {
			t.Fatalf("%d: %s and %s", i, first.Status, second.Status)
		}
		for _, x := range []Result{first, second} {
			if x.Status == StatusFailed && x.Error != store.ErrAlreadyResuming.Error() && x.Error != store.ErrRunUnavailable.Error() {
				t.Fatalf("%d: the losing wait: %+v", i, x)
			}
		}
	}
}

// A call whose process is gone is lost, and the wait says so.
func TestSharedRunLostCall(t *testing.T) {
	g := newGate()
	defer g.open()
	runs := store.NewMemoryRuns(0)
	a, b := replicas(t, `{"enabled":true,"timeoutMs":10000}`, runs, g.tool())
	r := exec(t, prepare(t, a, RunOptions{}), `const p = tools.callValue("slow_echo", {v: 1}); await yield_control("x"); return await p`)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	<-g.calls
	a.Close(context.Background()) // as if killed: the call ends unsettled and a stops beating
	<-g.cancelled
	r = waitFor(prepare(t, b, RunOptions{}), r.RunID)
	if r.Status != StatusFailed || r.Reason != "lost" || !strings.Contains(r.Error, "was lost: the process that ran it (a) stopped") {
		t.Fatalf("wait: %+v", r)
	}
}

func TestSharedRunRefusals(t *testing.T) {
	runs := store.NewMemoryRuns(0)
	a, b := replicas(t, roomy, runs, shipments())
	r := exec(t, prepare(t, a, RunOptions{}), `await yield_control("x"); return 1`)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	other := tool.Scope{AgentID: "agent", SessionKey: "other", SessionID: "other", RunID: "r1"}
	if w := waitFor(prepare(t, b, RunOptions{Scope: other}), r.RunID); w.Error != store.ErrOtherSession.Error() {
		t.Fatalf("another session: %+v", w)
	}
	if w := waitFor(prepare(t, b, RunOptions{}), "cm_unknown"); w.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("unknown: %+v", w)
	}
	// A record that does not decode is refused before anything runs, and
	// dropped.
	runs.Park(context.Background(), store.ParkedRun{ID: "cm_junk", Scope: scope, Expires: time.Now().Add(time.Minute), State: []byte(`{"v":1,"pending":[{"t":99}]}`)})
	if w := waitFor(prepare(t, b, RunOptions{}), "cm_junk"); w.Code != abi.CodeInternalError || !strings.Contains(w.Error, "cannot be resumed") {
		t.Fatalf("junk: %+v", w)
	}
	if w := waitFor(prepare(t, b, RunOptions{}), r.RunID); w.Status != StatusCompleted {
		t.Fatalf("the real run: %+v", w)
	}
}

// A restart-safe run replays a read-only call whose process died, instead
// of failing.
func TestSharedRunReplaysRestartSafeCalls(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	release := make(chan struct{})
	lookup := tool.Tool{Name: "lookup", Plugin: "demo", ReplaySafe: true, Description: "Look up.", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		mu.Lock()
		calls[c.Scope.RunID]++
		mu.Unlock()
		select {
		case <-release:
			return tool.Result{Details: 7}, nil
		case <-ctx.Done():
			return tool.Result{}, ctx.Err()
		}
	}}
	a, b := replicas(t, fmt.Sprintf(`{"enabled":true,"timeoutMs":%d}`, parkTimeoutMs), store.NewMemoryRuns(0), lookup)
	onA := prepare(t, a, RunOptions{})
	args, _ := json.Marshal(map[string]any{"code": `return (await tools.callValue("lookup", {})) * 6`, "restartSafe": true})
	r := onA.Exec(context.Background(), "c1", args)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	if w := waitFor(onA, r.RunID); w.Status != StatusWaiting { // starts the call on a; it is still running
		t.Fatalf("first wait: %+v", w)
	}
	a.Close(context.Background()) // a dies with the call in flight
	close(release)
	onB := prepare(t, b, RunOptions{})
	w := waitFor(onB, r.RunID)
	for i := 0; w.Status == StatusWaiting && i < 200; i++ { // until a's last heartbeat lapses
		w = waitFor(onB, r.RunID)
	}
	if w.Status != StatusCompleted || string(w.Value) != "42" {
		t.Fatalf("wait on b: %+v", w)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls[scope.RunID] != 2 {
		t.Fatalf("lookup ran %d times, want 2 (once on a, replayed on b)", calls[scope.RunID])
	}
}
