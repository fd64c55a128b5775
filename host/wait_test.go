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

func waitArgs(id string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"runId": id})
	return b
}

// parkNow parks at once with its gated call in flight: the yield beside the
// call suspends the cell without waiting for the deadline, for tests about
// what happens to a parked run rather than about the deadline that parks it.
const parkNow = `const p = tools.callValue("openclaw:demo:slow_echo", {}); await yield_control("park"); return await p`

// roomy is the config of a runtime whose legs never reach their deadline.
var roomy = fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, roomyTimeoutMs)

// awaitResuming returns once a wait holds the run with this id.
func awaitResuming(t *testing.T, rt *Runtime, id string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) { // liveness, not speed
		rt.store.mu.Lock()
		st := rt.store.runs[id]
		held := st != nil && st.resuming
		rt.store.mu.Unlock()
		if held {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no wait took run %s", id)
		}
	}
}

// TestWaitResumesSuspendedSnapshot is the end-to-end plan's suspension step: a
// slow tool settles after exec returned waiting; wait restores the snapshot
// and returns the final value with the output produced after the restore.
func TestWaitResumesSuspendedSnapshot(t *testing.T) {
	g := newGate()
	rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), shipments(), g.tool())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `
		text("before");
		const v = await tools.callValue("openclaw:demo:slow_echo", {v: 41});
		text("after");
		return v.v + 1;`)
	if r.Status != StatusWaiting || !strings.HasPrefix(r.RunID, "cm_") || r.Reason != "pending_tools" ||
		len(r.PendingToolCalls) != 1 || r.PendingToolCalls[0].Method != "callValue" {
		t.Fatalf("%+v", r)
	}
	if out, _ := json.Marshal(r.Output); string(out) != `[{"type":"text","text":"before"}]` {
		t.Fatalf("exec output %s", out)
	}
	g.open()
	w := run.Wait(context.Background(), waitArgs(r.RunID))
	if w.Status != StatusCompleted || string(w.Value) != "42" {
		t.Fatalf("%+v", w)
	}
	if out, _ := json.Marshal(w.Output); string(out) != `[{"type":"text","text":"after"}]` {
		t.Fatalf("wait output %s (must hold only new output)", out)
	}
	if again := run.Wait(context.Background(), waitArgs(r.RunID)); again.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("a finished run is still resumable: %+v", again)
	}
}

func TestWaitThatTimesOutKeepsTheRunID(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), g.tool())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `return await tools.callValue("openclaw:demo:slow_echo", {v: 1})`)
	w := run.Wait(context.Background(), waitArgs(r.RunID))
	if w.Status != StatusWaiting || w.RunID != r.RunID || len(w.PendingToolCalls) != 1 {
		t.Fatalf("%+v", w)
	}
	g.open()
	if w = run.Wait(context.Background(), waitArgs(r.RunID)); string(w.Value) != `{"v":1}` {
		t.Fatalf("%+v", w)
	}
}

func TestYieldControl(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `text("one"); await yield_control("checkpoint"); text("two"); return "done"`)
	if r.Status != StatusWaiting || r.Reason != "yield" {
		t.Fatalf("%+v", r)
	}
	w := run.Wait(context.Background(), waitArgs(r.RunID))
	if string(w.Value) != `"done"` || len(w.Output) != 1 || w.Output[0].Text != "two" {
		t.Fatalf("%+v", w)
	}
}

func TestWaitScopeChecks(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, roomy, g.tool())
	owner := prepare(t, rt, RunOptions{})
	r := exec(t, owner, parkNow)
	cases := map[string]struct {
		scope tool.Scope
		want  string
	}{
		"other session":   {tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s2", RunID: "r1"}, store.ErrOtherSession.Error()},
		"other agent":     {tool.Scope{AgentID: "x", SessionKey: "sk", SessionID: "s1", RunID: "r1"}, store.ErrOtherSession.Error()},
		"other run":       {tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s1", RunID: "r2"}, store.ErrOtherRun.Error()},
		"missing session": {tool.Scope{AgentID: "agent", RunID: "r1"}, store.ErrOtherSession.Error()},
		"missing run":     {tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s1"}, store.ErrOtherRun.Error()},
	}
	for name, tc := range cases {
		other := prepare(t, rt, RunOptions{Scope: tc.scope})
		if w := other.Wait(context.Background(), waitArgs(r.RunID)); w.Error != tc.want || w.Code != abi.CodeInvalidInput {
			t.Errorf("%s: %+v", name, w)
		}
	}
	if w := owner.Wait(context.Background(), waitArgs("cm_unknown")); w.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("unknown: %+v", w)
	}
	// The owner can still resume after the refused callers.
	g.open()
	if w := owner.Wait(context.Background(), waitArgs(r.RunID)); w.Status != StatusCompleted {
		t.Fatalf("owner: %+v", w)
	}
}

func TestConcurrentWaitIsRefused(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, roomy, g.tool())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, parkNow)
	first := make(chan Result)
	go func() { first <- run.Wait(context.Background(), waitArgs(r.RunID)) }()
	awaitResuming(t, rt, r.RunID) // the first wait holds the run until the gate opens
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Error != store.ErrAlreadyResuming.Error() {
		t.Fatalf("%+v", w)
	}
	g.open()
	if w := <-first; w.Status != StatusCompleted {
		t.Fatalf("%+v", w)
	}
}

func TestSnapshotExpiresAndCancelsCalls(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d, "snapshotTtlSeconds": 1}`, roomyTimeoutMs), g.tool())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, parkNow)
	if r.Status != StatusWaiting {
		t.Fatalf("%+v", r)
	}
	<-g.calls
	expectExpired(t, g, run, r.RunID)
}

// expectExpired waits until the run's TTL cancels its gated call, then
// checks that wait no longer finds the run.
func expectExpired(t *testing.T, g *gate, run *Run, runID string) {
	t.Helper()
	select {
	case <-g.cancelled:
	case <-time.After(30 * time.Second): // liveness, not speed
		t.Fatal("the run outlived its TTL: its call was not cancelled")
	}
	if w := run.Wait(context.Background(), waitArgs(runID)); w.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("expired run: %+v", w)
	}
}

// TestTTLPassingDuringAWaitStillExpires: a wait that holds a run while its
// TTL passes (here collecting calls that never finish) leaves it waiting, and
// the run then expires instead of holding its slot for good.
func TestTTLPassingDuringAWaitStillExpires(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, `{"enabled": true, "timeoutMs": 2000, "snapshotTtlSeconds": 1}`, g.tool())
	run := prepare(t, rt, RunOptions{})
	r := run.Exec(context.Background(), "c", code(`await yield_control("x"); return await tools.callValue("openclaw:demo:slow_echo", {})`))
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	// The wait resumes past the yield, parks on the gated call, and the
	// next wait collects until its deadline, past the TTL.
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Status != StatusWaiting {
		t.Fatalf("first wait: %+v", w)
	}
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Status != StatusWaiting {
		t.Fatalf("wait across the TTL: %+v", w)
	}
	expectExpired(t, g, run, r.RunID)
}

func TestAbortedExec(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, roomy, g.tool())
	run := prepare(t, rt, RunOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-g.calls; cancel() }()
	r := run.Exec(ctx, "c", code(`return await tools.callValue("openclaw:demo:slow_echo", {})`))
	if r.Status != StatusFailed || r.Code != abi.CodeAborted {
		t.Fatalf("%+v", r)
	}
	// The caller cancels once the cell is spinning (its call has started).
	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-g.calls; cancel() }()
	if r := run.Exec(ctx, "c", code(`tools.callValue("openclaw:demo:slow_echo", {}); while (true) {}`)); r.Code != abi.CodeAborted || r.Error != msgAborted {
		t.Fatalf("%+v", r)
	}
}

func TestSnapshotLimit(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d, "maxSnapshotBytes": 1024}`, roomyTimeoutMs), g.tool())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, parkNow)
	if r.Code != abi.CodeSnapshotLimitExceeded || r.Error != msgSnapshotLimit {
		t.Fatalf("%+v", r)
	}
}

func TestTrajectoryRecordsNestedCallsUnderParent(t *testing.T) {
	var mu sync.Mutex
	var got []NestedCall
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{Trajectory: func(c NestedCall) { mu.Lock(); got = append(got, c); mu.Unlock() }})
	r := run.Exec(context.Background(), "toolu_01/x", code(`await tools.callValue("shipping_list", {}); return await tools.call("openclaw:core:shipping_list")`))
	if r.Status != StatusCompleted || len(got) != 2 {
		t.Fatalf("%+v %+v", r, got)
	}
	if got[0].ParentCallID != "toolu_01/x" || got[0].ID != "tool_search_code:toolu_01_x:shipping_list:1" ||
		got[0].ToolID != "openclaw:core:shipping_list" || string(got[0].Input) != "{}" || got[1].Method != "call" ||
		got[1].ID != "tool_search_code:toolu_01_x:shipping_list:2" {
		t.Fatalf("%+v", got)
	}
}

func TestAbortDropsParkedRunsAndCancelsCalls(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, roomy, g.tool())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, parkNow)
	<-g.calls
	run.Abort()
	<-g.cancelled
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("%+v", w)
	}
	r = exec(t, run, parkNow)
	<-g.calls
	rt.EndSession(scope.SessionKey, scope.SessionID)
	<-g.cancelled
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); w.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("%+v", w)
	}
}

// A cell that returns while its calls are still running has pending work:
// exec drains them first, or parks, and the value arrives with completed.
func TestReturnWithCallsInFlight(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), shipments(), g.tool())
	run := prepare(t, rt, RunOptions{})

	r := exec(t, run, `tools.callValue("openclaw:core:shipping_list", {}); return 1`)
	if r.Status != StatusCompleted || string(r.Value) != "1" || r.Telemetry.CallCount != 1 {
		t.Fatalf("drained: %+v", r)
	}

	r = exec(t, run, `tools.callValue("openclaw:demo:slow_echo", {v: 1}); text("out"); return 2`)
	if r.Status != StatusWaiting || r.Reason != "pending_tools" || len(r.PendingToolCalls) != 1 {
		t.Fatalf("parked: %+v", r)
	}
	g.open()
	w := run.Wait(context.Background(), waitArgs(r.RunID))
	if w.Status != StatusCompleted || string(w.Value) != "2" || len(w.Output) != 0 {
		t.Fatalf("resumed: %+v", w)
	}

	if r := exec(t, run, `yield_control("unawaited"); return 3`); r.Status != StatusCompleted || string(r.Value) != "3" {
		t.Fatalf("an unawaited yield: %+v", r)
	}
}

// A call that settles while a wait resumes its run is recorded in the
// wait's trajectory, whose listener is still there, not the exec's.
func TestWaitRecordsInItsOwnTrajectory(t *testing.T) {
	g := newGate()
	rt := newRuntime(t, fmt.Sprintf(`{"enabled":true,"timeoutMs":%d}`, parkTimeoutMs), g.tool())
	var mu sync.Mutex
	seen := map[string][]string{}
	traced := func(who string) RunOptions {
		return RunOptions{Scope: scope, Trajectory: func(c NestedCall) {
			mu.Lock()
			defer mu.Unlock()
			seen[who] = append(seen[who], c.ToolID)
		}}
	}
	r := exec(t, prepare(t, rt, traced("exec")), `return (await tools.callValue("slow_echo", {v: 1})).v`)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	<-g.calls
	waiter := prepare(t, rt, traced("wait"))
	b, _ := json.Marshal(map[string]string{"runId": r.RunID})
	if w := waiter.Wait(context.Background(), b); w.Status != StatusWaiting { // the call is still running
		t.Fatalf("first wait: %+v", w)
	}
	g.open()
	if w := waiter.Wait(context.Background(), b); w.Status != StatusCompleted {
		t.Fatalf("wait: %+v", w)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen["exec"]) != 0 || len(seen["wait"]) != 1 || seen["wait"][0] != "openclaw:demo:slow_echo" {
		t.Fatalf("recorded: %v", seen)
	}
}
