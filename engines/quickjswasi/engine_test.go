package quickjswasi

import (
	"context"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/internal/enginetest"
)

// target is this engine for the shared suite of package enginetest.
var target = &enginetest.Target{Name: "wazero", New: func(o enginetest.Options) (*driver.Engine, error) {
	e, err := New(context.Background(), &Options{CacheDir: o.CacheDir, Limits: o.Limits,
		MaxMemoryBytes: o.MaxMemoryBytes, WatchdogGrace: o.WatchdogGrace})
	return (*driver.Engine)(e), err
}}

func TestEngine(t *testing.T) { enginetest.Test(t, target) }

func FuzzDecodeSnapshot(f *testing.F) { enginetest.FuzzRestore(f, target) }

// wazero cannot stop a guest call, so an instance whose call overruns its
// deadline is taken out of service instead.
func TestWatchdogQuarantinesOverrunningInstance(t *testing.T) {
	e, err := New(context.Background(), &Options{WatchdogGrace: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	h := &enginetest.Host{Block: 400 * time.Millisecond} // a host call that never should block
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c, err := e.NewCell(ctx, abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Run(ctx, "await __cm_bridge.request('slow', '{}')", "cell.js")
	c.Close(ctx)
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureUnavailable || e.Quarantined() != 1 {
		t.Fatalf("got %v %v, quarantined %d", s.Status, s.Failure, e.Quarantined())
	}
}
