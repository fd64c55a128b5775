package host

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// TestRunningCellsQueue: with one cell slot, a second exec waits for the
// first to end instead of failing, and one that cannot get a slot before its
// deadline fails as busy; a wait queues the same way but keeps its run.
func TestRunningCellsQueue(t *testing.T) {
	g := newGate()
	defer g.open()
	rt, err := New(context.Background(), &Options{Tools: []tool.Tool{g.tool()}, MaxRunningCells: 1,
		CodeMode: &Config{Enabled: true, Timeout: 30000 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	first := make(chan Result, 1)
	go func() {
		first <- exec(t, prepare(t, rt, RunOptions{}), `return await tools.callValue("openclaw:demo:slow_echo", {v: 1})`)
	}()
	<-g.calls // the first cell holds the only slot, awaiting its tool
	second := make(chan Result, 1)
	go func() { second <- exec(t, prepare(t, rt, RunOptions{}), `return 2`) }()
	select {
	case r := <-second:
		t.Fatalf("the second cell ran beside the first: %+v", r)
	default:
	}
	g.open()
	if r := <-first; r.Status != StatusCompleted {
		t.Fatalf("first: %+v", r)
	}
	if r := <-second; string(r.Value) != "2" {
		t.Fatalf("queued: %+v", r)
	}
}

// TestRunningCellsBusy: a cell that gets no slot before its deadline fails
// as busy, and a wait that gets none leaves its run parked.
func TestRunningCellsBusy(t *testing.T) {
	g := newGate()
	defer g.open()
	rt, err := New(context.Background(), &Options{Tools: []tool.Tool{g.tool()}, MaxRunningCells: 1,
		CodeMode: &Config{Enabled: true, Timeout: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{})
	parked := exec(t, run, `return await tools.callValue("openclaw:demo:slow_echo", {v: 3})`)
	if parked.Status != StatusWaiting {
		t.Fatalf("%+v", parked)
	}
	hold, _ := rt.slots.acquire(context.Background(), "", time.Now().Add(time.Hour)) // every slot in use
	if r := exec(t, run, `return 1`); r.Status != StatusFailed || r.Code != abi.CodeRuntimeUnavailable || r.Error != run.busyMessage() {
		t.Fatalf("exec: %+v", r)
	}
	g.open()
	if r := run.Wait(context.Background(), waitArgs(parked.RunID)); r.Status != StatusWaiting {
		t.Fatalf("wait without a slot: %+v", r)
	}
	hold()
	if r := run.Wait(context.Background(), waitArgs(parked.RunID)); r.Status != StatusCompleted {
		t.Fatalf("wait with a slot: %+v", r)
	}
}

// until spins until cond holds: tests wait for states, never for times.
func until(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// TestSlotsShare: a session holds at most its share; its further waiters
// queue behind its own slots while another session's take a free slot at
// once, and a freed slot goes to the first waiter that may take it.
func TestSlotsShare(t *testing.T) {
	s := newSlots(4, 2)
	far := time.Now().Add(time.Hour)
	ctx := context.Background()
	a1, _ := s.acquire(ctx, "a", far)
	a2, _ := s.acquire(ctx, "a", far)
	granted := make(chan string, 4)
	wait := func(key string) {
		go func() {
			if _, ok := s.acquire(ctx, key, far); ok {
				granted <- key
			}
		}()
	}
	wait("a") // over a's share: it queues though two slots are free
	until(t, func() bool { _, _, w := s.state("a"); return w == 1 })
	if used, held, _ := s.state("a"); used != 2 || held != 2 {
		t.Fatalf("used %d, a holds %d", used, held)
	}
	b1, ok := s.acquire(ctx, "b", far)
	if !ok {
		t.Fatal("b got no free slot")
	}
	nobody, ok := s.acquire(ctx, "", far) // a run without a session: total only
	if !ok {
		t.Fatal("a sessionless run got no free slot")
	}
	wait("c") // every slot is in use
	until(t, func() bool { _, _, w := s.state("c"); return w == 2 })
	b1() // c may take it, a may not: c passes a
	if k := <-granted; k != "c" {
		t.Fatalf("b's slot went to %s", k)
	}
	a1() // a's own slot frees: its waiter takes it
	if k := <-granted; k != "a" {
		t.Fatalf("a's slot went to %s", k)
	}
	a1() // a second release is a no-op
	if used, held, w := s.state("a"); used != 4 || held != 2 || w != 0 {
		t.Fatalf("used %d, a holds %d, %d waiting", used, held, w)
	}
	a2()
	nobody()
	_ = b1
}

// TestSlotsGiveUp: waiters that give up (cancelled or past their deadline,
// some just as a slot was granted to them) leave nothing held and nothing
// queued, and the slots keep working.
func TestSlotsGiveUp(t *testing.T) {
	s := newSlots(3, 1)
	s.acquire(context.Background(), "x", time.Now().Add(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := s.acquire(ctx, "x", time.Now().Add(time.Hour)); ok {
		t.Fatal("a cancelled waiter over its share got a slot")
	}
	if _, ok := s.acquire(context.Background(), "x", time.Now()); ok {
		t.Fatal("a waiter past its deadline got a slot")
	}
	// A slot granted to a waiter that has just given up goes on: the
	// waiter is woken by its cancellation, then finds the grant under mu.
	ctx, cancel = context.WithCancel(context.Background())
	gaveUp := make(chan bool)
	go func() { _, ok := s.acquire(ctx, "x", time.Now().Add(time.Hour)); gaveUp <- !ok }()
	until(t, func() bool { _, _, w := s.state("x"); return w == 1 })
	s.mu.Lock()
	cancel()
	s.free("x") // hold's release, as it runs under mu: it grants the waiter
	s.mu.Unlock()
	if !<-gaveUp {
		t.Fatal("a cancelled waiter kept its slot")
	}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { runtime.Gosched(); cancel() }() // races its own grant
			if release, ok := s.acquire(ctx, fmt.Sprint("k", i%4), time.Now().Add(time.Hour)); ok {
				release()
			}
		}()
	}
	wg.Wait()
	if used, _, w := s.state(""); used != 0 || w != 0 || len(s.held) != 0 {
		t.Fatalf("left %d used, %d waiting, %v held", used, w, s.held)
	}
	for range 3 {
		if _, ok := s.acquire(context.Background(), "", time.Now().Add(time.Hour)); !ok {
			t.Fatal("a slot was lost")
		}
	}
}

// TestStuckSessionLeavesSlots is issue 28's attack: one session has twelve
// `while(1){}` cells in flight, with a deadline far past the test; another
// session's `return 1` completes while every one of the twelve is still
// running or queued behind its own session's share.
func TestStuckSessionLeavesSlots(t *testing.T) {
	rt := newRuntimeWith(t, &Options{Tools: []tool.Tool{shipments()}, MaxRunningCells: 8,
		CodeMode: &Config{Enabled: true, Timeout: 60000 * time.Millisecond}})
	attacker := prepare(t, rt, RunOptions{Scope: tool.Scope{SessionKey: "attacker", SessionID: "attacker", RunID: "r"}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stuck := make(chan Result, 12)
	for range 12 {
		go func() { stuck <- attacker.Exec(ctx, "call_1", code(`while (1) {}`)) }()
	}
	key := sessionKey(attacker.opts.Scope)
	share := defaultSessionCells(8)
	until(t, func() bool {
		if len(stuck) != 0 {
			t.Fatalf("a stuck cell ended: %+v", <-stuck)
		}
		_, held, w := rt.slots.state(key)
		return held == share && w == 12-share
	})
	probe := prepare(t, rt, RunOptions{Scope: tool.Scope{SessionKey: "probe", SessionID: "probe", RunID: "r"}})
	if r := exec(t, probe, `return 1`); r.Status != StatusCompleted || string(r.Value) != "1" {
		t.Fatalf("probe: %+v", r)
	}
	if _, held, w := rt.slots.state(key); len(stuck) != 0 || held != share || w != 12-share {
		t.Fatalf("the stuck cells did not all stay in flight: %d ended, %d running, %d queued", len(stuck), held, w)
	}
	cancel()
	for range 12 {
		if r := <-stuck; r.Status != StatusFailed || r.Code != abi.CodeAborted {
			t.Fatalf("stuck: %+v", r)
		}
	}
	if used, _, w := rt.slots.state(key); used != 0 || w != 0 {
		t.Fatalf("after the attack: %d used, %d waiting", used, w)
	}
}

// TestParkedHeadroom: a session gets a quarter of the process's parked
// runs; past three quarters of the process, only sessions that hold fewer
// than lightRuns may park, so four sessions at their share no longer fill
// it; ending a session frees its share.
func TestParkedHeadroom(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := newRuntimeWith(t, &Options{Tools: []tool.Tool{g.tool()}, MaxSessionCells: 4,
		CodeMode: codeModeJSON(json.RawMessage(roomy))})
	session := func(i int) *Run {
		id := fmt.Sprintf("s%d", i)
		return prepare(t, rt, RunOptions{Scope: tool.Scope{SessionKey: id, SessionID: id, RunID: "r"}})
	}
	const slow = parkNow
	park := func(run *Run, n int) {
		for range n {
			if r := exec(t, run, slow); r.Status != StatusWaiting {
				t.Fatalf("%+v", r)
			}
		}
	}
	refused := func(run *Run, msg, why string) {
		t.Helper()
		if r := exec(t, run, slow); r.Status != StatusFailed || r.Error != msg || r.Code != abi.CodeInvalidInput {
			t.Fatalf("%s: %+v", why, r)
		}
	}
	light := lightRuns(store.SessionRunsCap)
	headroom := store.MaxParkedRuns / 4
	park(session(0), store.SessionRunsCap)
	refused(session(0), store.ErrTooManySessionRuns.Error(), "past the session's share")
	for i := 1; i*store.SessionRunsCap < store.MaxParkedRuns-headroom; i++ {
		park(session(i), store.SessionRunsCap)
	}
	heavy := session(3) // the fourth session at its share would fill the process
	park(heavy, light)
	refused(heavy, store.ErrTooManyRuns.Error(), "a session past the light share in the headroom")
	for i := 4; i < 3+headroom/light; i++ {
		park(session(i), light)
	}
	if n := len(rt.store.runs); n != store.MaxParkedRuns {
		t.Fatalf("%d runs parked", n)
	}
	refused(session(99), store.ErrTooManyRuns.Error(), "past the process cap")
	rt.EndSession("s0", "s0")
	park(session(99), light)
	refused(session(1), store.ErrTooManySessionRuns.Error(), "a session at its share after another ended")
}
