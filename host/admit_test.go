package host

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// TestRunningCellsQueue: with one cell slot, a second exec waits for the
// first to end instead of failing, and one that cannot get a slot before its
// deadline fails as busy; a wait queues the same way but keeps its run.
func TestRunningCellsQueue(t *testing.T) {
	g := newGate()
	defer g.open()
	rt, err := New(context.Background(), &Options{Tools: []Tool{g.tool()}, MaxRunningCells: 1,
		Config: json.RawMessage(`{"enabled": true, "timeoutMs": 30000}`)})
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
	rt, err := New(context.Background(), &Options{Tools: []Tool{g.tool()}, MaxRunningCells: 1,
		Config: json.RawMessage(`{"enabled": true, "timeoutMs": 300}`)})
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
