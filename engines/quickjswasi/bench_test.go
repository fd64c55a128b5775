package quickjswasi

import (
	"testing"

	"github.com/seed11a79d2d/codemode/engines/internal/enginetest"
)

// The shared engine benchmarks on wazero; package wasmtime runs the same
// bodies on both runtimes side by side.

func BenchmarkCellStart(b *testing.B) { enginetest.BenchCellStart(b, target) }
func BenchmarkCellStartBigTemplate(b *testing.B) {
	enginetest.BenchCellStartBigTemplate(b, target)
}
func BenchmarkEvalSmall(b *testing.B)        { enginetest.BenchEvalSmall(b, target) }
func BenchmarkEvalCompute(b *testing.B)      { enginetest.BenchEvalCompute(b, target) }
func BenchmarkHostRoundTrip(b *testing.B)    { enginetest.BenchHostRoundTrip(b, target) }
func BenchmarkHostCall(b *testing.B)         { enginetest.BenchHostCall(b, target) }
func BenchmarkSnapshot(b *testing.B)         { enginetest.BenchSnapshot(b, target) }
func BenchmarkRestore(b *testing.B)          { enginetest.BenchRestore(b, target) }
func BenchmarkInterruptLatency(b *testing.B) { enginetest.BenchInterruptLatency(b, target) }
func BenchmarkEngineNew(b *testing.B)        { enginetest.BenchEngineNew(b, target) }
