//go:build wasmtime

package wasmtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/internal/enginetest"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// target is this engine for the shared suite of package enginetest.
var target = &enginetest.Target{Name: "wasmtime", New: func(o enginetest.Options) (*driver.Engine, error) {
	e, err := New(context.Background(), &Options{CacheDir: o.CacheDir, Limits: o.Limits,
		MaxMemoryBytes: o.MaxMemoryBytes, WatchdogGrace: o.WatchdogGrace})
	return (*driver.Engine)(e), err
}}

// wazero is the reference engine, for snapshot interchange and benchmarks
// side by side.
var wazero = &enginetest.Target{Name: "wazero", New: func(o enginetest.Options) (*driver.Engine, error) {
	e, err := quickjswasi.New(context.Background(), &quickjswasi.Options{CacheDir: o.CacheDir, Limits: o.Limits,
		MaxMemoryBytes: o.MaxMemoryBytes, WatchdogGrace: o.WatchdogGrace})
	return (*driver.Engine)(e), err
}}

func TestEngine(t *testing.T) { enginetest.Test(t, target) }

func TestInterchangeWithWazero(t *testing.T) { enginetest.TestInterchange(t, target, wazero) }

func TestEpochStopsGuestPastItsDeadline(t *testing.T) {
	e, err := New(context.Background(), &Options{WatchdogGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	for _, tc := range []struct {
		name, src string
		host      abi.Host
	}{
		{"busy loop", "while (true) {}", &enginetest.Host{Deaf: true}},
		{"blocking host call", "await __cm_bridge.request('slow', '{}'); while (true) {}", &enginetest.Host{Deaf: true, Block: 200 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			c, err := e.NewCell(ctx, abi.Limits{}, tc.host)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			s := c.Run(ctx, tc.src, "cell.js")
			took := time.Since(start)
			c.Close(ctx)
			if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTimeout || !errors.Is(s.Failure, abi.CodeTimeout) {
				t.Fatalf("got %v %v", s.Status, s.Failure)
			}
			if took > 5*time.Second {
				t.Fatalf("stopped only after %v", took)
			}
		})
	}
	if e.Stopped() != 2 {
		t.Fatalf("stopped %d calls, want 2", e.Stopped())
	}
	if c, s := enginetest.RunCell(t, e, &enginetest.Host{}, "return 5"); s.Value != "5" {
		t.Fatal(s)
	} else {
		c.Close(context.Background())
	}
}
