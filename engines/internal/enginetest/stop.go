package enginetest

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// StuckCells are guest code that never polls QuickJS's interrupt handler
// once it is running: builtins that loop in C over a length read after the
// bridge's guard, the parser, a regex, a sort, BigInt formatting. Each would
// run for seconds to minutes. The reliability corpus runs the same families
// through the host.
var StuckCells = []struct{ Name, Source string }{
	{"join over a length that grows after the guard", `let c = 0; const o = { get length() { return c++ ? 2 ** 32 - 1 : 0 } }; return Array.prototype.join.call(o, "")`},
	{"concat of a sparse array", `const a = []; a.length = 2 ** 32 - 1; return [].concat(a).length`},
	{"flat of a sparse array", `const a = []; a.length = 2 ** 32 - 1; return [a].flat().length`},
	{"parser: new Function of 65,000 lets", `new Function("let v" + [...Array(65000).keys()].join(";let v")); return 1`},
	{"typed array sort", `new Uint8Array(5e7).sort(); return 1`},
	{"BigInt toString of a million bits", `return (1n << 1000000n).toString().length`},
}

// testStopsGuestThatNeverPolls: every stuck cell, and a loop under a host
// that never asks for a stop, ends as a timeout once its deadline and the
// grace period have passed; its instance is discarded and the engine goes
// on. A garbage collection started meanwhile finishes: the guest does not
// hold the process.
func testStopsGuestThatNeverPolls(t *testing.T, tg *Target) {
	e := tg.Fresh(t, Options{Limits: abi.Limits{MemoryBytes: 256 << 20}, StopGrace: 50 * time.Millisecond})
	cells := append([]struct{ Name, Source string }{
		{"loop under a deaf host", "while (true) {}"},
		{"host call that blocks", "__cm_bridge.request('slow', '{}'); for (;;) {}"},
	}, StuckCells...)
	for i, tc := range cells {
		t.Run(tc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			h := &Host{Deaf: i < 2}
			if i == 1 {
				h.Block = 100 * time.Millisecond
			}
			if !h.Deaf {
				h.Deadline, _ = ctx.Deadline()
			}
			c, err := e.NewCell(ctx, abi.Limits{}, h)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(ctx)
			done := make(chan abi.Step, 1)
			go func() { done <- c.Run(ctx, tc.Source, "cell.js") }()
			runtime.GC() // waits for every goroutine, the guest's too
			s := <-done
			if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTimeout || !errors.Is(s.Failure, abi.CodeTimeout) {
				t.Fatalf("got %v %v", s.Status, s.Failure)
			}
			// Only the stop past the grace period ends a deaf host's cell;
			// a stuck builtin may also meet QuickJS's handler before it
			// gets stuck, on a slow machine.
			if h.Deaf && e.Stopped() != i+1 {
				t.Fatalf("stopped %d calls, want %d", e.Stopped(), i+1)
			}
		})
	}
	if c, s := RunCell(t, e, &Host{}, "return 5"); s.Value != "5" {
		t.Fatal(s)
	} else {
		c.Close(context.Background())
	}
}
