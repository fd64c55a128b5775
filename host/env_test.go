package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// waitUntilDone calls wait until the run leaves waiting, a bounded number of
// times: a timer due later than one wait leg takes a few.
func waitUntilDone(t *testing.T, run *Run, r Result) Result {
	t.Helper()
	for i := 0; r.Status == StatusWaiting && i < 50; i++ {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	return r
}

func outputText(r Result) string {
	var b strings.Builder
	for _, o := range r.Output {
		fmt.Fprintf(&b, "%s|", o.Text)
	}
	return b.String()
}

func TestShortTimerCompletesInsideExec(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := exec(t, run, `const t0 = Date.now(); await new Promise((r) => setTimeout(r, 30)); return Date.now() - t0 >= 29`)
	if r.Status != StatusCompleted || string(r.Value) != "true" {
		t.Fatalf("%+v", r)
	}
}

func TestReturnEndsIntervalsAndTimers(t *testing.T) {
	run := prepare(t, newRuntime(t, `{"enabled": true, "timeoutMs": 60000}`, shipments()), RunOptions{})
	r := exec(t, run, `setInterval(() => text("tick"), 1); setTimeout(() => text("late"), 50000); return "done"`)
	if r.Status != StatusCompleted || string(r.Value) != `"done"` || len(r.Output) != 0 {
		t.Fatalf("a finished cell waited for its timers: %+v", r)
	}
}

func TestLongTimerParksAndFiresAfterWait(t *testing.T) {
	// The timer outlasts the leg whatever the cell's start took, and the leg
	// leaves room for the cell to set it.
	run := prepare(t, newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), shipments()), RunOptions{})
	r := exec(t, run, `text("before"); await new Promise((r) => setTimeout(r, 3000)); text("after"); return "woke"`)
	if r.Status != StatusWaiting || len(r.PendingToolCalls) != 1 || r.PendingToolCalls[0].Method != "timer" {
		t.Fatalf("%+v", r)
	}
	w := waitUntilDone(t, run, r)
	if w.Status != StatusCompleted || string(w.Value) != `"woke"` || outputText(w) != "after|" {
		t.Fatalf("%+v", w)
	}
}

func TestClearTimeoutAcrossASuspension(t *testing.T) {
	run := prepare(t, newRuntime(t, `{"enabled": true, "timeoutMs": 5000}`, shipments()), RunOptions{})
	r := exec(t, run, `const id = setTimeout(() => text("must not run"), 3600000); await yield_control("turn"); clearTimeout(id); return "cleared"`)
	if r.Status != StatusWaiting {
		t.Fatalf("%+v", r)
	}
	w := run.Wait(context.Background(), waitArgs(r.RunID))
	if w.Status != StatusCompleted || string(w.Value) != `"cleared"` || len(w.Output) != 0 {
		t.Fatalf("a cleared timer held the run or ran: %+v", w)
	}
}

func TestIntervalClearedFromItsCallback(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := exec(t, run, `let n = 0; await new Promise((done) => { const id = setInterval(() => { if (++n === 5) { clearInterval(id); done(); } }, 2); }); return n`)
	if r.Status != StatusCompleted || string(r.Value) != "5" {
		t.Fatalf("%+v", r)
	}
}

// TestTimersHaveTheirOwnBound tries to get past the timer bound, and shows
// that timers take no nested-call slot.
func TestTimersHaveTheirOwnBound(t *testing.T) {
	run := prepare(t, newRuntime(t, `{"enabled": true, "maxPendingToolCalls": 1}`, shipments()), RunOptions{})
	r := exec(t, run, `
		const ids = [];
		let refused = "";
		try { for (let i = 0; i < 1000; i++) ids.push(setTimeout(() => {}, 60000)); } catch (e) { refused = e.message }
		const v = await tools.callValue("shipping_list", {});
		ids.forEach(clearTimeout);
		return [ids.length, refused, Array.isArray(v)]`)
	want := fmt.Sprintf(`[%d,"too many pending timers (%d): clear some, or await them before starting more",true]`, maxPendingTimers, maxPendingTimers)
	if r.Status != StatusCompleted || string(r.Value) != want {
		t.Fatalf("%+v\nwant %s", r, want)
	}
}

var session1 = tool.Scope{AgentID: "a", SessionKey: "s1", SessionID: "s1", RunID: "r1"}

func TestStoreAndLoadKeepStateAcrossCellsOfASession(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{Scope: session1})
	if r := exec(t, run, `store("unawaited", [1, 2]); await store("k", {a: 1}); await store("gone", 1); await store("gone", undefined); return 1`); r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
	later := prepare(t, rt, RunOptions{Scope: tool.Scope{AgentID: "a", SessionKey: "s1", SessionID: "s1", RunID: "r2"}})
	r := exec(t, later, `return [await load("k"), await load("unawaited"), typeof (await load("gone")), typeof (await load("never"))]`)
	if r.Status != StatusCompleted || string(r.Value) != `[{"a":1},[1,2],"undefined","undefined"]` {
		t.Fatalf("%+v", r)
	}
	other := prepare(t, rt, RunOptions{Scope: tool.Scope{AgentID: "a", SessionKey: "s2", SessionID: "s2", RunID: "r3"}})
	if r := exec(t, other, `return typeof (await load("k"))`); string(r.Value) != `"undefined"` {
		t.Fatalf("another session reads the state: %+v", r)
	}
	rt.EndSession("s1", "s1")
	if r := exec(t, later, `return typeof (await load("k"))`); string(r.Value) != `"undefined"` {
		t.Fatalf("the state outlived its session: %+v", r)
	}
}

func TestStoreSurvivesWait(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{Scope: session1})
	r := exec(t, run, `await store("n", 1); await yield_control("x"); await store("n", (await load("n")) + 1); return await load("n")`)
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Status != StatusCompleted || string(w.Value) != "2" {
		t.Fatalf("%+v", w)
	}
}

// TestStoreBounds tries to get past each bound of the session state.
func TestStoreBounds(t *testing.T) {
	rt := newRuntime(t, `{"enabled": true, "maxOutputBytes": 1048576}`, shipments())
	run := prepare(t, rt, RunOptions{Scope: session1})
	r := exec(t, run, `
		const out = [];
		const big = "x".repeat(`+fmt.Sprint(store.MaxStateValueBytes)+`);
		try { await store("big", big); out.push("stored") } catch (e) { out.push(e.message) }
		const part = "y".repeat(200000);
		for (let i = 0; i < 6; i++) {
			try { await store("p" + i, part); out.push("stored") } catch (e) { out.push(e.message) }
		}
		await store("p0", undefined);
		try { await store("p9", part); out.push("stored after freeing") } catch (e) { out.push(e.message) }
		return out`)
	if r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
	var out []string
	if err := json.Unmarshal(r.Value, &out); err != nil || len(out) != 8 {
		t.Fatalf("%s", r.Value)
	}
	if !strings.Contains(out[0], "more than the 262144 one value may hold") {
		t.Errorf("a value past the bound: %q", out[0])
	}
	for i := 1; i <= 5; i++ {
		if out[i] != "stored" {
			t.Errorf("store %d: %q", i, out[i])
		}
	}
	if !strings.Contains(out[6], "session state full") || !strings.Contains(out[6], "store(key, undefined) frees a key") {
		t.Errorf("past the session's total: %q", out[6])
	}
	if out[7] != "stored after freeing" {
		t.Errorf("freeing a key: %q", out[7])
	}
}

func TestStoreIsReadOnlyInRestartSafeCells(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{Scope: session1})
	exec(t, run, `await store("k", 7)`)
	in := func(src string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"code": src, "restartSafe": true})
		return b
	}
	r := run.Exec(context.Background(), "c2", in(`return await load("k")`))
	if r = waitUntilDone(t, run, r); r.Status != StatusCompleted || string(r.Value) != "7" {
		t.Fatalf("load in a restart-safe cell: %+v", r)
	}
	r = run.Exec(context.Background(), "c3", in(`await store("k", 8)`))
	if r.Status != StatusFailed || r.Error != msgRestartSafeStore {
		t.Fatalf("store in a restart-safe cell: %+v", r)
	}
}

func TestStoreNeedsASession(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run, err := rt.Prepare(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := exec(t, run, `try { await load("k") } catch (e) { return e.message }`); string(r.Value) != bridge.Quote(msgNoSession) {
		t.Fatalf("%+v", r)
	}
}

func TestOutputOverflowSaysWhatAndShowsItsStart(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	for _, c := range []struct{ src, what, start string }{
		{`text("ab".repeat(60000))`, "a text item of 120025 bytes after 0 bytes of output", `it starts "abababab`},
		{`text("ok"); json({rows: "r".repeat(70000)})`, "a json item of 70035 bytes after 27 bytes of output", `it starts "{\"rows\":\"rrrr`},
		{`return "v".repeat(70000)`, "the return value, 70002 bytes of JSON,", `it starts "\"vvvv`},
	} {
		r := exec(t, run, c.src)
		if r.Status != StatusFailed || r.Code != "output_limit_exceeded" || !strings.HasPrefix(r.Error, msgOutputLimit+": "+c.what) ||
			!strings.Contains(r.Error, c.start) || !strings.Contains(r.Error, "…") || len(r.Error) > 400 {
			t.Errorf("%s:\n%+v", c.src, r)
		}
		for _, host := range []string{"bridge.js", "prelude.js", "env.js", "__cm_host"} {
			if strings.Contains(r.Error, host) {
				t.Errorf("%s: host code in the failure: %s", c.src, r.Error)
			}
		}
	}
}

func TestFailuresCarryNoHostFrames(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	for _, src := range []string{
		`await tools.callValue("no_such_tool", {})`,
		`store("", 1)`,
		`await store("k", "x".repeat(300000))`, // rejected by the host
		`setTimeout("code", 1)`,
		`await fetch("https://example.com")`,
		`[1, 2].map(() => { throw new Error("in a callback") })`,
		`await tools.callValue({}, {})`,
		`for (let i = 0; i < 300; i++) setTimeout(() => {}, 1e6)`, // thrown by __cm_host_request
	} {
		r := exec(t, run, src)
		if r.Status != StatusFailed {
			t.Fatalf("%s: %+v", src, r)
		}
		for _, host := range []string{"bridge.js", "prelude.js", "env.js", "web.js", "__cm_host"} {
			if strings.Contains(r.Error, host) {
				t.Errorf("%s: host frame in %q", src, r.Error)
			}
		}
	}
}

func TestWaitRefusesABlankRunID(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	for _, args := range []string{`{}`, `{"runId":""}`, `{"runId":"  \t"}`, `{"runId":7}`, `[]`} {
		if r := run.Wait(context.Background(), json.RawMessage(args)); r.Error != "runId must be a non-empty string." || r.Code != "invalid_input" {
			t.Errorf("%s: %+v", args, r)
		}
	}
}

// TestLateResultParksInsteadOfResuming: a call that settles with less than
// the resume budget left (250 ms of a 2 s leg) is not delivered into a cell
// that could then run out of time after the call's side effects happened.
// The call answers 100 ms before the leg's deadline, however long the cell
// took to make it; one that a loaded machine delivers later still parks.
func TestLateResultParksInsteadOfResuming(t *testing.T) {
	var deadline time.Time
	late := tool.Tool{Name: "late", Description: "answers just before the leg's deadline",
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			select {
			case <-time.After(time.Until(deadline.Add(-100 * time.Millisecond))):
			case <-ctx.Done():
			}
			return tool.Result{Details: "done"}, nil
		}}
	run := prepare(t, newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), late), RunOptions{})
	deadline = time.Now().Add(parkTimeoutMs * time.Millisecond) // the exec's deadline is no earlier
	r := exec(t, run, `const v = await tools.late({}); text("resumed"); return v`)
	if r.Status != StatusWaiting || len(r.Output) != 0 {
		t.Fatalf("a result 100 ms before the deadline resumed the cell: %+v", r)
	}
	if w := waitUntilDone(t, run, r); w.Status != StatusCompleted || string(w.Value) != `"done"` || outputText(w) != "resumed|" {
		t.Fatalf("%+v", w)
	}
}

// TestReturnEndsTimersBesideCallsInFlight: a cell that returns with a call in
// flight waits for the call, but its interval stops at the return, and a
// timer a call's callback asks for afterwards never fires.
func TestReturnEndsTimersBesideCallsInFlight(t *testing.T) {
	nap := tool.Tool{Name: "nap", Description: "sleeps 300 ms",
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			select {
			case <-time.After(300 * time.Millisecond):
			case <-ctx.Done():
			}
			return tool.Result{Details: "rested"}, nil
		}}
	run := prepare(t, newRuntime(t, `{"enabled": true, "timeoutMs": 30000}`, nap), RunOptions{})
	r := exec(t, run, `
		setInterval(() => { tools.nap({}); text("tick"); }, 5);
		tools.nap({}).then(() => setTimeout(() => text("late timer"), 0));
		return "done"`)
	if r.Status != StatusCompleted || string(r.Value) != `"done"` || len(r.Output) != 0 {
		t.Fatalf("timers outlived the return: %+v", r)
	}
}

// TestTimerChurnStaysBounded clears timers that may have fired already: those
// count against the bound until delivered, so the run's channel of results
// never fills and no sender is left blocked (goleak checks). The bound may
// refuse the churn; either way the cell ends.
func TestTimerChurnStaysBounded(t *testing.T) {
	run := prepare(t, newRuntime(t, roomy, shipments()), RunOptions{}) // the cell ends itself after 600 ms
	r := exec(t, run, `
		const t0 = Date.now();
		let n = 0;
		while (Date.now() - t0 < 600) {
			const id = setTimeout(() => {}, 0);
			const s = Date.now(); while (Date.now() - s < 1) {}
			clearTimeout(id);
			n++;
		}
		throw new Error("churned " + (n > 0));`)
	if r.Status != StatusFailed || (!strings.Contains(r.Error, "churned true") && !strings.Contains(r.Error, "too many pending timers")) {
		t.Fatalf("%+v", r)
	}
}

// TestDebounceLoopClearsAsItGoes: the debounce pattern (clear the last timer,
// set a new one) in a long loop leaves nothing pending but the last timer.
func TestDebounceLoopClearsAsItGoes(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := exec(t, run, `
		let id, fired = 0;
		for (let i = 0; i < 5000; i++) { clearTimeout(id); id = setTimeout(() => fired++, 50); }
		await new Promise((r) => setTimeout(r, 120));
		return fired`)
	if r.Status != StatusCompleted || string(r.Value) != "1" {
		t.Fatalf("%+v", r)
	}
}
