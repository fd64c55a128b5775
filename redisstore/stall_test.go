package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/redistest"
	"github.com/seed11a79d2d/codemode/tool"
)

// A stalled Redis (CLIENT PAUSE) must fail each operation within the
// store's OpTimeout, never hold it; these pauses are many times that
// bound, and the checks are on states, not durations.

var stallScope = tool.Scope{AgentID: "a", SessionKey: "k", SessionID: "s", RunID: "r"}

// stallRuntimes are two replicas on one Redis with opTimeout, sharing the
// slow tool, which answers once release is closed.
func stallRuntimes(t *testing.T, url string, opTimeout time.Duration, release chan struct{}) (a, b *host.Run) {
	t.Helper()
	slow := tool.Tool{Name: "slow", Description: "Answer when released.", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		select {
		case <-release:
			return tool.Result{Details: map[string]any{"ok": true}}, nil
		case <-ctx.Done():
			return tool.Result{}, ctx.Err()
		}
	}}
	mk := func(name string) *host.Run {
		s, err := New(context.Background(), Options{URL: url, Key: testKey, Prefix: "stall:", OpTimeout: opTimeout})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		rt, err := host.New(context.Background(), &host.Options{Tools: []tool.Tool{slow}, CodeMode: &host.Config{Enabled: true, Timeout: 500 * time.Millisecond},
			Runs: s, Sessions: s.Sessions(), Replica: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close(context.Background()) })
		run, err := rt.Prepare(host.RunOptions{Scope: stallScope})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	return mk("a"), mk("b")
}

func execCell(run *host.Run, code string) host.Result {
	args, _ := json.Marshal(map[string]string{"code": code})
	return run.Exec(context.Background(), "c", args)
}

// waitDone waits until the run is no longer waiting, at most limit times.
func waitDone(t *testing.T, run *host.Run, id string, limit int) host.Result {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"runId": id})
	for range limit {
		if r := run.Wait(context.Background(), args); r.Status != host.StatusWaiting {
			return r
		}
	}
	t.Fatalf("run %s still waiting after %d waits", id, limit)
	return host.Result{}
}

// parkSlow parks a run on a whose call to slow is in flight.
func parkSlow(t *testing.T, a *host.Run) string {
	t.Helper()
	r := execCell(a, `const p = tools.callValue("slow", {}); await yield_control("x"); return (await p).ok`)
	if r.Status != host.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	return r.RunID
}

// A pause shorter than the bound: the outcome written during it lands when
// Redis answers again, and the run completes.
func TestStallShorterThanTheBound(t *testing.T) {
	url := redistest.Start(t)
	release := make(chan struct{})
	a, b := stallRuntimes(t, url, 0, release) // DefaultOpTimeout, 2 s
	id := parkSlow(t, a)
	resumed := redistest.Pause(t, url, 300*time.Millisecond)
	close(release) // the call finishes while Redis is paused
	resumed()
	if r := waitDone(t, b, id, 20); r.Status != host.StatusCompleted || string(r.Value) != "true" {
		t.Fatalf("wait: %+v", r)
	}
}

// A pause past every write of the outcome: the run is marked failed when
// Redis is back, and the next wait says the store was unavailable; it does
// not answer waiting until the run's TTL.
func TestStallLongerThanTheRetries(t *testing.T) {
	url := redistest.Start(t)
	release := make(chan struct{})
	// 50 ms per operation: the outcome's four writes and their backoff end
	// within two seconds, well inside the pause, which is shorter than a
	// replica's heartbeat TTL (5 s) so a is not taken for dead.
	a, b := stallRuntimes(t, url, 50*time.Millisecond, release)
	id := parkSlow(t, a)
	resumed := redistest.Pause(t, url, 3500*time.Millisecond)
	close(release)
	resumed()
	r := waitDone(t, b, id, 40)
	if r.Status != host.StatusFailed || r.Code != abi.CodeInternalError || !strings.Contains(r.Error, "the run store was unavailable when its nested call") ||
		!strings.Contains(r.Error, ErrNoAnswer.Error()) {
		t.Fatalf("wait: %+v", r)
	}
	args, _ := json.Marshal(map[string]string{"runId": id})
	if r := b.Wait(context.Background(), args); r.Status != host.StatusFailed || !strings.Contains(r.Error, "unavailable or expired") {
		t.Fatalf("a wait after the failure: %+v", r)
	}
}

// While Redis is paused past the bound, a cell's store() and load() reject
// with an error the cell catches, a cell that parks fails saying the store
// is unavailable, and a wait does too; once Redis answers, all work again.
func TestStallFailsOperationsClearly(t *testing.T) {
	url := redistest.Start(t)
	a, _ := stallRuntimes(t, url, 100*time.Millisecond, make(chan struct{}))
	if r := execCell(a, `await yield_control("x"); return 1`); r.Status != host.StatusWaiting {
		t.Fatalf("park: %+v", r)
	}
	parked := execCell(a, `await yield_control("y"); return 2`).RunID

	resumed := redistest.Pause(t, url, 2*time.Second)
	r := execCell(a, `const out = [];
for (const f of [() => store("k", 1), () => load("k")]) {
  try { await f(); out.push("done") } catch (e) { out.push(e.message) }
}
return out`)
	var got []string
	if r.Status != host.StatusCompleted || json.Unmarshal(r.Value, &got) != nil || len(got) != 2 ||
		!strings.HasPrefix(got[0], `store "k" failed: session state: redis did not answer in time`) ||
		!strings.HasPrefix(got[1], `load "k" failed: session state: redis did not answer in time`) {
		t.Fatalf("store and load while paused: %+v %s", r, r.Value)
	}
	if r := execCell(a, `await yield_control("z"); return 3`); r.Status != host.StatusFailed || r.Code != abi.CodeRuntimeUnavailable ||
		!strings.HasPrefix(r.Error, "code mode run store unavailable: run store: park: redis did not answer in time") {
		t.Fatalf("park while paused: %+v", r)
	}
	args, _ := json.Marshal(map[string]string{"runId": parked})
	if r := a.Wait(context.Background(), args); r.Status != host.StatusFailed || r.Code != abi.CodeRuntimeUnavailable ||
		!strings.Contains(r.Error, "redis did not answer in time") {
		t.Fatalf("wait while paused: %+v", r)
	}
	resumed()

	if r := execCell(a, `await store("k", 1); return await load("k")`); r.Status != host.StatusCompleted || string(r.Value) != "1" {
		t.Fatalf("store after the pause: %+v", r)
	}
	if r := waitDone(t, a, parked, 5); r.Status != host.StatusCompleted || string(r.Value) != "2" {
		t.Fatalf("the parked run after the pause: %+v", r)
	}
	if _, err := New(context.Background(), Options{URL: url, Key: testKey, OpTimeout: time.Millisecond}); err != nil && !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("connect: %v", err)
	}
}
