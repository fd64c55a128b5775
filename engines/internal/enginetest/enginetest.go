// Package enginetest is the test suite of the engines built on package
// driver, written once and run by each engine package's tests on its own
// runtime: [Test] for behaviour, the Bench functions for benchmarks. It is
// imported only from _test files.
package enginetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// Options are the engine options the suite varies; a target maps them onto
// its package's Options. Zero fields mean the engine's defaults.
type Options struct {
	CacheDir       string
	Limits         abi.Limits
	MaxMemoryBytes uint32
	StopGrace      time.Duration
	Prelude        string
}

// Target is one engine package under test.
type Target struct {
	// Name labels sub-benchmarks: engine=Name.
	Name string
	// New makes an engine through the package's public constructor and
	// returns the driver behind it.
	New func(o Options) (*driver.Engine, error)

	once   sync.Once
	shared *driver.Engine
	err    error
}

// Shared returns one engine per target for the whole test binary: compiling
// is the slow part, and sharing it also exercises the pool across tests.
func (tg *Target) Shared(t testing.TB) *driver.Engine {
	t.Helper()
	tg.once.Do(func() { tg.shared, tg.err = tg.New(Options{Limits: abi.Limits{MemoryBytes: 16 << 20}}) })
	if tg.err != nil {
		t.Fatal(tg.err)
	}
	return tg.shared
}

// Fresh makes an engine of its own, closed when the test ends.
func (tg *Target) Fresh(t testing.TB, o Options) *driver.Engine {
	t.Helper()
	e, err := tg.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// Test runs every shared behaviour test on the target.
func Test(t *testing.T, tg *Target) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *Target)
	}{
		{"CellValues", testCellValues},
		{"CellFailures", testCellFailures},
		{"ErrorLineNumbersMatchSource", testErrorLineNumbersMatchSource},
		{"StackLimitAtMaximum", testStackLimitAtMaximum},
		{"HostRoundTrip", testHostRoundTrip},
		{"HostErrorsAreCatchable", testHostErrorsAreCatchable},
		{"HostPanicRetiresInstance", testHostPanicRetiresInstance},
		{"PendingWithoutHostWork", testPendingWithoutHostWork},
		{"InterruptStopsLoops", testInterruptStopsLoops},
		{"StopsGuestThatNeverPolls", testStopsGuestThatNeverPolls},
		{"OutOfMemoryInAnUnhandledJobFailsTheCell", testOutOfMemoryInAnUnhandledJob},
		{"MemoryCapBelowQuickJSLimit", testMemoryCapBelowQuickJSLimit},
		{"InstanceSurvivesLimits", testInstanceSurvivesLimits},
		{"TrapKillsOnlyItsInstance", testTrapKillsOnlyItsInstance},
		{"MathRandomDiffersAcrossCellsAndRestores", testMathRandomDiffers},
		{"TemplateIsDeterministic", testTemplateIsDeterministic},
		{"TemplateCache", testTemplateCache},
		{"EngineClose", testEngineClose},
		{"ThousandCellsDoNotGrowHostMemory", testThousandCells},
		{"CellsInParallel", testCellsInParallel},
		{"GrownInstanceIsDropped", testGrownInstanceIsDropped},
		{"ModestHeapUseDoesNotCreep", testModestHeapUseDoesNotCreep},
		{"ResetCleansState", testResetCleansState},
		{"ResetRestoresTemplate", testResetRestoresTemplate},
		{"SnapshotAfterWrites", testSnapshotAfterWrites},
		{"SnapshotRestoreInAnotherInstance", testSnapshotRestoreInAnotherInstance},
		{"SnapshotPortableAcrossEngines", testSnapshotPortableAcrossEngines},
		{"SnapshotIsCompact", testSnapshotIsCompact},
		{"RestoreRefusesBadImages", testRestoreRefusesBadImages},
		{"SnapshotOfFinishedOrUnrunCell", testSnapshotOfFinishedOrUnrunCell},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, tg) })
	}
}

// Host records requests and output, and interrupts at a deadline.
type Host struct {
	mu       sync.Mutex
	Next     abi.Ticket
	Requests []Request
	Output   []string
	Deadline time.Time
	Abort    bool
	// Deaf never asks the guest to stop, so only the engine's own deadline
	// backstop can.
	Deaf bool
	// Block delays every request, as a host call that should never block.
	Block   time.Duration
	EmitErr error
	// PollsAfter counts polls answered with a stop: the engine must stop at
	// the first one.
	PollsAfter int
}

// Request is one recorded host request.
type Request struct {
	Ticket      abi.Ticket
	Op, Payload string
}

func (h *Host) Request(op, payload string) (abi.Ticket, error) {
	if h.Block > 0 {
		time.Sleep(h.Block)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if op == "fail" {
		return 0, errors.New("too many pending code mode tool calls")
	}
	h.Next++
	h.Requests = append(h.Requests, Request{h.Next, op, payload})
	return h.Next, nil
}

func (h *Host) Emit(kind abi.OutputKind, payload string) error {
	if h.EmitErr != nil {
		return h.EmitErr
	}
	h.Output = append(h.Output, kind.String()+":"+payload)
	return nil
}

func (h *Host) ShouldInterrupt() abi.Interrupt {
	switch {
	case h.Deaf:
		return abi.InterruptNone
	case h.Abort:
		return abi.InterruptAbort
	case !h.Deadline.IsZero() && time.Now().After(h.Deadline):
		h.PollsAfter++
		return abi.InterruptDeadline
	}
	return abi.InterruptNone
}

// RunCell starts a cell on e with default limits and runs src in it.
func RunCell(t testing.TB, e abi.Engine, h abi.Host, src string) (abi.Cell, abi.Step) {
	t.Helper()
	c, err := e.NewCell(context.Background(), abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Run(context.Background(), src, "cell.js")
}

// runValue runs src in a closed-after cell of the shared engine.
func runValue(t *testing.T, tg *Target, src string) abi.Step {
	t.Helper()
	c, s := RunCell(t, tg.Shared(t), &Host{}, src)
	c.Close(context.Background())
	return s
}
