//go:build wasmtime

package reliability

import (
	"context"
	"testing"

	"go.uber.org/goleak"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/wasmtime"
	"github.com/seed11a79d2d/codemode/host"
)

// corpusEngine runs the corpus on wasmtime (make test-wasmtime): every
// attack must give the same outcome on both runtimes.
func corpusEngine(t testing.TB) abi.Engine {
	e, err := wasmtime.New(context.Background(), &wasmtime.Options{Prelude: host.Prelude()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

const engineName = "wasmtime"

func init() {
	// The epoch ticker of an engine closed in Cleanup, after the corpus's
	// goroutine check.
	engineLeaks = append(engineLeaks, goleak.IgnoreTopFunction("github.com/seed11a79d2d/codemode/engines/wasmtime.(*compiled).tick"))
}
