//go:build wasmtime

package wasmtime

import (
	"testing"

	"github.com/seed11a79d2d/codemode/engines/internal/enginetest"
)

// The shared engine benchmarks on both runtimes, as sub-benchmarks
// engine=wazero and engine=wasmtime:
//
//	benchstat -col /engine results.txt

func BenchmarkCellStart(b *testing.B) { enginetest.BenchCellStart(b, wazero, target) }
func BenchmarkCellStartBigTemplate(b *testing.B) {
	enginetest.BenchCellStartBigTemplate(b, wazero, target)
}
func BenchmarkEvalSmall(b *testing.B)        { enginetest.BenchEvalSmall(b, wazero, target) }
func BenchmarkHostRoundTrip(b *testing.B)    { enginetest.BenchHostRoundTrip(b, wazero, target) }
func BenchmarkHostCall(b *testing.B)         { enginetest.BenchHostCall(b, wazero, target) }
func BenchmarkSnapshot(b *testing.B)         { enginetest.BenchSnapshot(b, wazero, target) }
func BenchmarkRestore(b *testing.B)          { enginetest.BenchRestore(b, wazero, target) }
func BenchmarkInterruptLatency(b *testing.B) { enginetest.BenchInterruptLatency(b, wazero, target) }
func BenchmarkEngineNew(b *testing.B)        { enginetest.BenchEngineNew(b, wazero, target) }
