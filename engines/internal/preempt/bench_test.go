package preempt_test

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/engines/internal/preempt"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// BenchmarkInstrumentQuickJS is what the rewrite adds to every engine start.
func BenchmarkInstrumentQuickJS(b *testing.B) {
	m, err := quickjswasi.LoadModule(context.Background(), nil)
	if err != nil {
		b.Skip("no quickjs.wasm: " + err.Error())
	}
	b.SetBytes(int64(len(m)))
	for b.Loop() {
		if _, err := preempt.Instrument(m, "env", "host_interrupt", 10000); err != nil {
			b.Fatal(err)
		}
	}
}
