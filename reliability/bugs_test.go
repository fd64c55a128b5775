package reliability

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

func skipKnownBug(t *testing.T, bug string) {
	t.Helper()
	if os.Getenv(bugsEnv) != "1" {
		t.Skip("BUG: " + bug + " (run with " + bugsEnv + "=1)")
	}
}

// stuckBuiltin runs QuickJS C code that never polls the interrupt handler:
// a join over a length that grows after the bridge's guard read it, which
// would loop for minutes.
const stuckBuiltin = `let c = 0; const o = { get length() { return c++ ? 2 ** 32 - 1 : 0 } }; return Array.prototype.join.call(o, "")`

// TestStuckBuiltinDoesNotHoldTheProcess: the contract's wall clock applies
// "whether or not the guest cooperates". While a cell is stuck in a builtin,
// a garbage collection and another run's cell both finish before it ends
// (before preemptible guests, the collection waited for the builtin and the
// whole process stopped); the stuck cell then ends as a timeout.
func TestStuckBuiltinDoesNotHoldTheProcess(t *testing.T) {
	w := newWorld(t)
	// The stuck cell's deadline leaves the collection and the probe seconds
	// to finish, however slow the machine; it then ends at that deadline.
	rt := newRuntime(t, w, `{"enabled": true, "timeoutMs": 5000}`)
	done := make(chan host.Result, 1)
	go func() {
		done <- prepare(t, rt, testScope).Exec(context.Background(), "slow", execArgs(stuckBuiltin))
	}()
	time.Sleep(100 * time.Millisecond) // let it get stuck
	runtime.GC()
	other := tool.Scope{AgentID: "agent", SessionKey: "sk2", SessionID: "s2", RunID: "r2"}
	probe := prepare(t, rt, other).Exec(context.Background(), "probe", execArgs("return 1"))
	select {
	case r := <-done:
		t.Fatalf("the stuck cell ended (%s) before the probe and the collection", describe(r))
	default:
	}
	if string(probe.Value) != "1" {
		t.Fatalf("probe: %s", describe(probe))
	}
	if r := <-done; r.Code != abi.CodeTimeout {
		t.Fatalf("stuck cell: %s", describe(r))
	}
}

// blockingHost makes the cell's output call block, as a stuck host callback
// would; the wrapped engine also gives each guest call the deadline the host
// does not, so the engine watchdog can fire.
type blockingHost struct {
	abi.Host
	block time.Duration
}

func (h blockingHost) Emit(kind abi.OutputKind, payload string) error {
	if payload == "block" {
		time.Sleep(h.block)
	}
	return h.Host.Emit(kind, payload)
}

type deadlineEngine struct {
	abi.Engine
	timeout, block time.Duration
}

func (e deadlineEngine) NewCell(ctx context.Context, l abi.Limits, h abi.Host) (abi.Cell, error) {
	c, err := e.Engine.NewCell(ctx, l, blockingHost{h, e.block})
	return deadlineCell{c, e.timeout}, err
}

type deadlineCell struct {
	abi.Cell
	timeout time.Duration
}

func (c deadlineCell) Run(ctx context.Context, src, name string) abi.Step {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.Cell.Run(ctx, src, name)
}
