package host

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed11a79d2d/codemode/tool"
)

// Attacks on the environment's host side: timers that outlive their run,
// timer churn that gets around the pending-timer bound, and store/load's
// accounting. Each test states the property that holds.

// parkedTimers returns the host timers of the parked run with this id.
func parkedTimers(t *testing.T, rt *Runtime, id string) []*hostTimer {
	t.Helper()
	rt.store.mu.Lock()
	defer rt.store.mu.Unlock()
	st := rt.store.runs[id]
	if st == nil {
		t.Fatalf("run %s is not parked", id)
	}
	var hs []*hostTimer
	for _, h := range st.timers {
		hs = append(hs, h)
	}
	return hs
}

func allSettled(hs []*hostTimer) (settled, total int) {
	for _, h := range hs {
		h.mu.Lock()
		if h.settled {
			settled++
		}
		h.mu.Unlock()
	}
	return settled, len(hs)
}

// A run parked with the most timers it may hold (254 long timeouts, an
// interval re-arming every millisecond and the sleep it awaits) must stop
// every one of them when it ends without a wait, by its TTL, by the end of
// its session or by Abort: no Go timer or goroutine may stay behind.
//
// The yield parks it as soon as the timers are set, not at a deadline that a
// slow start could reach before they are.
const parkWithTimers = `
	for (let i = 0; i < 254; i++) setTimeout(() => text("late " + i), 5000 + i);
	setInterval(() => {}, 1);
	const sleep = new Promise((r) => setTimeout(r, 3600000));
	await yield_control("park");
	await sleep;
	return "never"`

func TestAttackParkedTimersEndWithTheRun(t *testing.T) {
	for _, end := range []string{"ttl", "session", "abort"} {
		t.Run(end, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent()
			rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d, "snapshotTtlSeconds": 1}`, roomyTimeoutMs), shipments())
			run := prepare(t, rt, RunOptions{Scope: session1})
			r := exec(t, run, parkWithTimers)
			if r.Status != StatusWaiting {
				t.Fatalf("want a parked run: %+v", r)
			}
			hs := parkedTimers(t, rt, r.RunID)
			if len(hs) != maxPendingTimers {
				t.Fatalf("%d host timers pending, want %d", len(hs), maxPendingTimers)
			}
			switch end {
			case "ttl": // the TTL passes while the loop below watches
			case "session":
				rt.EndSession(session1.SessionKey, session1.SessionID)
			case "abort":
				run.Abort()
			}
			deadline := time.Now().Add(30 * time.Second) // liveness, not speed
			for {
				if s, n := allSettled(hs); s == n {
					break
				} else if time.Now().After(deadline) {
					t.Fatalf("%d of %d timers still armed after the run ended (%s)", n-s, n, end)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Status != StatusFailed || !strings.Contains(w.Error, "unavailable or expired") {
				t.Fatalf("wait after the run ended: %+v", w)
			}
			rt.Close(context.Background())
			goleak.VerifyNone(t, leaks)
		})
	}
}

// Clearing a timer at once takes it out of the 256 bound, but its request
// stays pending (and, when it fired first, a goroutine waits to deliver it)
// until the cell gives the host a turn. A loop that never does can pile up
// tens of thousands of them; the guest's heap limit (each request holds a
// promise there) and the deadline end it, and nothing may outlive the leg.
func TestAttackTimerChurnLeavesNothingBehind(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	rt := newRuntime(t, `{"enabled": true, "timeoutMs": 1500, "memoryLimitBytes": 8388608}`, shipments())
	run := prepare(t, rt, RunOptions{})
	var peak int
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				peak = max(peak, runtime.NumGoroutine())
			}
		}
	}()
	start := time.Now()
	r := exec(t, run, `for (;;) clearTimeout(setTimeout(() => {}, 0));`)
	close(stop)
	<-sampled
	took := time.Since(start)
	if r.Status != StatusFailed {
		t.Fatalf("a churn loop ended as %+v after %v", r, took)
	}
	t.Logf("timer churn: %s %q after %v, peak goroutines %d", r.Code, r.Error, took.Round(time.Millisecond), peak)
	rt.Close(context.Background())
	goleak.VerifyNone(t, leaks)
}

// Timers that are due together clear each other from their callbacks: a
// timer cleared after it fired in the host, but before its callback ran,
// never runs it, and re-arming from a callback keeps working.
func TestAttackTimersClearedWhileFiring(t *testing.T) {
	run := prepare(t, newRuntime(t, `{"enabled": true, "timeoutMs": 5000}`, shipments()), RunOptions{})
	r := exec(t, run, `
		let fired = 0, wrong = 0, rearmed = 0;
		const ids = [], cleared = new Set();
		for (let i = 0; i < 200; i++) ids.push(setTimeout(() => {
			fired++;
			if (cleared.has(i)) wrong++;
			// each callback clears the next two, which are due too
			for (const j of [i + 1, i + 2]) if (j < ids.length && !cleared.has(j)) { cleared.add(j); clearTimeout(ids[j]); }
		}, 20));
		await new Promise((done) => {
			const again = () => { if (++rearmed < 50) setTimeout(again, 0); else done(); };
			setTimeout(again, 0);
		});
		await new Promise((r) => setTimeout(r, 60));
		return [fired + cleared.size >= 200, wrong, rearmed]`)
	if r.Status != StatusCompleted || string(r.Value) != `[true,0,50]` {
		t.Fatalf("[every timer fired or was cleared, cleared ones that ran, re-arms]: %+v", r)
	}
}

// Sixteen concurrent stores near the value bound race for the session's
// MiB: the session total holds exactly, overwriting a key frees what it held,
// and keys count by their UTF-8 bytes, each entry with its overhead.
func TestAttackStoreRaceAtTheSessionBound(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{Scope: session1})
	r := exec(t, run, `
		const big = "x".repeat(250 * 1024);
		const settled = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => store("k" + i, big)));
		const ok = settled.filter((s) => s.status === "fulfilled").length;
		const full = settled.filter((s) => s.status === "rejected" && s.reason.message.includes("session state full")).length;
		// overwriting the same key over and over keeps one value's worth
		for (let i = 0; i < 20; i++) await store("k0", big + i);
		// a 256-character key of three-byte characters is 768 bytes
		const wide = "\u4e00".repeat(256);
		await store(wide, 1);
		return [ok, full, (await load(wide)), typeof (await load("k15"))]`)
	if r.Status != StatusCompleted || string(r.Value) != `[4,12,1,"undefined"]` {
		t.Fatalf("%+v", r)
	}
	// That what the session counts is what it holds is store's
	// TestMemoryAccountingHolds.
}

// Another session, another key under the same id, and a run whose scope
// names no session read nothing of a session's values.
func TestAttackStoreOtherScopes(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	if r := exec(t, prepare(t, rt, RunOptions{Scope: session1}), `await store("secret", 42); return 1`); r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
	for _, sc := range []tool.Scope{
		{AgentID: "a", SessionKey: "s1", SessionID: "s2", RunID: "r"},
		{AgentID: "a", SessionKey: "s2", SessionID: "s1", RunID: "r"},
		{AgentID: "a", SessionKey: "", SessionID: "s1", RunID: "r"},
		{AgentID: "a", SessionKey: "s1", SessionID: "", RunID: "r"},
	} {
		r := exec(t, prepare(t, rt, RunOptions{Scope: sc}), `return typeof (await load("secret"))`)
		if string(r.Value) != `"undefined"` {
			t.Fatalf("scope %+v read another session's value: %+v", sc, r)
		}
	}
}

// Restart-safe cells may load but never store, whichever way the store
// starts: directly, unawaited before a return, from a timer's callback or
// after a yield.
func TestAttackRestartSafeStoreByOtherPaths(t *testing.T) {
	rt := newRuntime(t, roomy, shipments())
	for i, src := range []string{
		`store("k", 1); return 1`,
		`setTimeout(() => store("k", 2), 0); await new Promise((r) => setTimeout(r, 20)); return 2`,
		`await load("k"); await store("k", 3); return 3`,
		`await yield_control("x"); await store("k", 4); return 4`,
		`Promise.resolve().then(() => store("k", 5)); return 5`,
	} {
		run := prepare(t, rt, RunOptions{Scope: session1})
		b, _ := json.Marshal(map[string]any{"code": src, "restartSafe": true})
		r := run.Exec(context.Background(), fmt.Sprintf("rs_%d", i), b)
		for n := 0; r.Status == StatusWaiting && n < 10; n++ {
			r = run.Wait(context.Background(), waitArgs(r.RunID))
		}
		if r.Status != StatusFailed || !strings.HasPrefix(r.Error, "restart-safe code mode cannot") {
			t.Errorf("cell %d: %+v", i, r)
		}
		check := exec(t, prepare(t, rt, RunOptions{Scope: session1}), `return typeof (await load("k"))`)
		if string(check.Value) != `"undefined"` {
			t.Fatalf("cell %d stored from a restart-safe cell: %s", i, check.Value)
		}
	}
}
