package bench

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/conformance/gojaengine"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// engineCase is one sub-benchmark: an engine the metrics run on.
//
// Another engine joins every metric it supports by appending a case from
// init in a file of its own, behind its build tag if it needs one:
//
//	//go:build wasmtime
//	func init() { engineCases = append(engineCases, engineCase{name: "quickjswasi-wasmtime", ...}) }
type engineCase struct {
	name string
	// new builds an engine whose template holds the bridge and then prelude
	// ("" for none).
	new func(ctx context.Context, prelude string) (abi.Engine, error)
	// prelude is false for engines that cannot evaluate a host prelude into a
	// template; metrics that need one (the host, template_start) skip them.
	prelude bool
}

var engineCases = []engineCase{
	{name: "quickjswasi-wazero", prelude: true, new: func(ctx context.Context, prelude string) (abi.Engine, error) {
		return quickjswasi.New(ctx, &quickjswasi.Options{Prelude: prelude})
	}},
	// goja is the differential oracle; no snapshots, no template.
	{name: "goja", new: func(ctx context.Context, prelude string) (abi.Engine, error) {
		if prelude != "" {
			return nil, fmt.Errorf("goja: no prelude")
		}
		return gojaengine.New(nil)
	}},
}

// needs says what a metric requires of an engine.
type needs struct{ snapshot, prelude bool }

var (
	enginesMu sync.Mutex
	engines   = map[string]abi.Engine{}
)

// engineFor returns one engine per case and prelude, shared by the
// benchmarks of a process: building a template is not what they measure.
func engineFor(b testing.TB, c engineCase, prelude string) abi.Engine {
	b.Helper()
	enginesMu.Lock()
	defer enginesMu.Unlock()
	key := c.name + "\x00" + prelude
	if e, ok := engines[key]; ok {
		return e
	}
	e, err := c.new(context.Background(), prelude)
	if err != nil {
		b.Fatal(err)
	}
	engines[key] = e
	return e
}

// forEngines runs body as one sub-benchmark per engine that meets n.
func forEngines(b *testing.B, n needs, prelude string, body func(b *testing.B, e abi.Engine)) {
	for _, c := range engineCases {
		if n.prelude && !c.prelude {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			e := engineFor(b, c, prelude)
			if n.snapshot && !e.Capabilities().Snapshot {
				b.Skip("no snapshots")
			}
			body(b, e)
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, e := range engines {
		e.Close(context.Background())
	}
	os.Exit(code)
}

// benchHost answers requests with increasing tickets and drops output.
type benchHost struct{ next abi.Ticket }

func (h *benchHost) Request(op, payload string) (abi.Ticket, error) {
	h.next++
	return h.next, nil
}

func (h *benchHost) Emit(abi.OutputKind, string) error { return nil }

func (h *benchHost) ShouldInterrupt() abi.Interrupt { return abi.InterruptNone }

// TestEveryEngineRunsTheSharedCells keeps the benchmarks' guest code working
// on every engine case, so that a broken body shows up in make test.
func TestEveryEngineRunsTheSharedCells(t *testing.T) {
	for _, c := range engineCases {
		t.Run(c.name, func(t *testing.T) {
			e := engineFor(t, c, "")
			cell, err := e.NewCell(context.Background(), abi.Limits{}, &benchHost{})
			if err != nil {
				t.Fatal(err)
			}
			defer cell.Close(context.Background())
			if s := cell.Run(context.Background(), bridgeNames+TwoTicketsJS, "cell.js"); s.Status != abi.StepPending {
				t.Fatalf("two_tickets.js: %v %v", s.Status, s.Failure)
			}
			cell.Settle(context.Background(), 1, abi.Resolve(`{"n":4}`))
			if s := cell.Settle(context.Background(), 2, abi.Resolve(`{"n":2}`)); s.Value != "42" {
				t.Fatalf("two_tickets.js: %v %v", s.Value, s.Failure)
			}
			if !c.prelude {
				return
			}
			e = engineFor(t, c, bridgeNames+Tools200JS)
			cell, err = e.NewCell(context.Background(), abi.Limits{}, &benchHost{})
			if err != nil {
				t.Fatal(err)
			}
			defer cell.Close(context.Background())
			if s := cell.Run(context.Background(), "return Object.keys(tools).length", "cell.js"); s.Value != "200" {
				t.Fatalf("tools200.js: %v %v", s.Value, s.Failure)
			}
		})
	}
}
