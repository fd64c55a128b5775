//go:build !wasmtime

package reliability

import (
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
)

// corpusEngine is the engine the corpus runtimes use: nil for the host's
// default (quickjs-wasi on wazero); with the wasmtime tag, wasmtime.
func corpusEngine(testing.TB) abi.Engine { return nil }

// engineName selects a cell's "<engine>-code" expectation, where runtimes
// differ; empty for the default engine.
const engineName = ""
