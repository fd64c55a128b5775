//go:build wasmtime

package wasmtime

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// The engine benchmarks of package quickjswasi, each body written once and
// run on both runtimes as sub-benchmarks engine=wazero and engine=wasmtime:
//
//	benchstat -col /engine results.txt

func onEngines(b *testing.B, body func(b *testing.B, e abi.Engine)) {
	b.Run("engine=wazero", func(b *testing.B) { body(b, wazeroEngine(b)) })
	b.Run("engine=wasmtime", func(b *testing.B) { body(b, engine(b)) })
}

// nopHost hands out increasing tickets and drops output.
type nopHost struct{ next abi.Ticket }

func (h *nopHost) Request(string, string) (abi.Ticket, error) { h.next++; return h.next, nil }
func (*nopHost) Emit(abi.OutputKind, string) error            { return nil }
func (*nopHost) ShouldInterrupt() abi.Interrupt               { return abi.InterruptNone }

func BenchmarkCellStartPooled(b *testing.B) {
	ctx := context.Background()
	onEngines(b, func(b *testing.B, e abi.Engine) {
		for b.Loop() {
			c, err := e.NewCell(ctx, abi.Limits{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			c.Close(ctx)
		}
	})
}

func BenchmarkEvalSmall(b *testing.B) {
	ctx := context.Background()
	onEngines(b, func(b *testing.B, e abi.Engine) {
		for b.Loop() {
			c, _ := e.NewCell(ctx, abi.Limits{}, nil)
			if s := c.Run(ctx, "let s = 0; for (let i = 0; i < 100; i++) s += i; return s", "cell.js"); s.Value != "4950" {
				b.Fatal(s)
			}
			c.Close(ctx)
		}
	})
}

// BenchmarkHostRoundTrip is one asynchronous request: settle a ticket, run
// the guest's continuation, and take its next request.
func BenchmarkHostRoundTrip(b *testing.B) {
	ctx := context.Background()
	onEngines(b, func(b *testing.B, e abi.Engine) {
		h := &nopHost{}
		c, s := run(b, e, h, "const b = __cm_bridge; let n = 0; for (;;) { n += await b.request('x', ''); }")
		defer c.Close(ctx)
		if s.Status != abi.StepPending {
			b.Fatal(s)
		}
		for b.Loop() {
			if s := c.Settle(ctx, h.next, abi.Resolve("1")); s.Status != abi.StepPending {
				b.Fatal(s)
			}
		}
	})
}

// BenchmarkHostCall is the cost of one synchronous guest-to-host call (emit)
// and its re-entrant calls back into the guest, amortised over 1,000 calls in
// one cell; on wasmtime every crossing goes through cgo.
func BenchmarkHostCall(b *testing.B) {
	ctx := context.Background()
	const calls = 1000
	onEngines(b, func(b *testing.B, e abi.Engine) {
		for b.Loop() {
			c, _ := e.NewCell(ctx, abi.Limits{}, &nopHost{})
			if s := c.Run(ctx, "const b = __cm_bridge; for (let i = 0; i < 1000; i++) b.emit('text', 'x'); return 1", "cell.js"); s.Value != "1" {
				b.Fatal(s)
			}
			c.Close(ctx)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
	})
}

func BenchmarkSnapshot(b *testing.B) {
	ctx := context.Background()
	onEngines(b, func(b *testing.B, e abi.Engine) {
		c, s := run(b, e, &testHost{}, twoTickets)
		defer c.Close(ctx)
		if s.Status != abi.StepPending {
			b.Fatal(s)
		}
		var img []byte
		for b.Loop() {
			var err error
			if img, err = c.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(img)), "bytes/snapshot")
	})
}

func BenchmarkRestore(b *testing.B) {
	ctx := context.Background()
	onEngines(b, func(b *testing.B, e abi.Engine) {
		img := suspended(b, e)
		for b.Loop() {
			r, err := e.Restore(ctx, img, abi.Limits{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			r.Close(ctx)
		}
	})
}

// BenchmarkCellStartCold is a new instance in a new store with the template
// loaded: what a cell costs when the pool is empty (wasmtime only; the wazero
// engine has its own in package quickjswasi).
func BenchmarkCellStartCold(b *testing.B) {
	e := engine(b)
	for b.Loop() {
		in, err := e.instantiate()
		if err != nil {
			b.Fatal(err)
		}
		if err := e.tmpl.load(in); err != nil {
			b.Fatal(err)
		}
		in.close()
	}
}

// BenchmarkEngineNew is an engine start with a warm compilation cache: load
// the compiled module, build the template, close.
func BenchmarkEngineNew(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	b.Run("engine=wazero", func(b *testing.B) {
		if e, err := quickjswasi.New(ctx, &quickjswasi.Options{CacheDir: dir}); err == nil { // warm the cache
			e.Close(ctx)
		}
		for b.Loop() {
			e, err := quickjswasi.New(ctx, &quickjswasi.Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			e.Close(ctx)
		}
	})
	b.Run("engine=wasmtime", func(b *testing.B) {
		if e, err := New(ctx, &Options{CacheDir: dir}); err == nil {
			e.Close(ctx)
		}
		for b.Loop() {
			e, err := New(ctx, &Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			e.Close(ctx)
		}
	})
}
