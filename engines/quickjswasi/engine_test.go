package quickjswasi

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/internal/enginetest"
)

// target is this engine for the shared suite of package enginetest.
var target = &enginetest.Target{Name: "wazero", New: func(o enginetest.Options) (*driver.Engine, error) {
	e, err := New(context.Background(), &Options{CacheDir: o.CacheDir, Limits: o.Limits,
		MaxMemoryBytes: o.MaxMemoryBytes, StopGrace: o.StopGrace, Prelude: o.Prelude})
	return (*driver.Engine)(e), err
}}

func TestEngine(t *testing.T) { enginetest.Test(t, target) }

func FuzzDecodeSnapshot(f *testing.F) { enginetest.FuzzRestore(f, target) }
