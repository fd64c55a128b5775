package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// The engine benchmarks, each body written once. Given several targets, a
// benchmark runs on each as sub-benchmark engine=Name, to compare with
//
//	benchstat -col /engine results.txt

func onTargets(b *testing.B, targets []*Target, body func(b *testing.B, tg *Target)) {
	if len(targets) == 1 {
		body(b, targets[0])
		return
	}
	for _, tg := range targets {
		b.Run("engine="+tg.Name, func(b *testing.B) { body(b, tg) })
	}
}

// nopHost hands out increasing tickets and drops output.
type nopHost struct{ next abi.Ticket }

func (h *nopHost) Request(string, string) (abi.Ticket, error) { h.next++; return h.next, nil }
func (*nopHost) Emit(abi.OutputKind, string) error            { return nil }
func (*nopHost) ShouldInterrupt() abi.Interrupt               { return abi.InterruptNone }

// BenchCellStart is a cell from the pool (pooled), and a new instance with
// the template loaded (cold): what a cell costs when the pool is empty.
func BenchCellStart(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		b.Run("pooled", func(b *testing.B) {
			e := tg.Shared(b)
			for b.Loop() {
				c, err := e.NewCell(ctx, abi.Limits{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				c.Close(ctx)
			}
		})
		b.Run("cold", func(b *testing.B) {
			e := tg.Shared(b)
			for b.Loop() {
				if err := e.StartCold(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// bigPrelude grows the template about 4x: a prelude of that size must not
// make every cell's reset dearer (issue 29).
const bigPrelude = `globalThis.__big = Array.from({ length: 48000 }, (_, i) => ({ i, s: "entry " + i }))`

// BenchCellStartBigTemplate is CellStart/pooled on a template about four
// times the default one; it reports both templates' sizes.
func BenchCellStartBigTemplate(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		small := tg.Shared(b).TemplateBytes()
		e := tg.Fresh(b, Options{Prelude: bigPrelude})
		for b.Loop() {
			c, err := e.NewCell(ctx, abi.Limits{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			c.Close(ctx)
		}
		b.ReportMetric(float64(e.TemplateBytes())/float64(small), "x-template")
	})
}

func BenchEvalSmall(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		e := tg.Shared(b)
		for b.Loop() {
			c, _ := e.NewCell(ctx, abi.Limits{}, nil)
			if s := c.Run(ctx, "let s = 0; for (let i = 0; i < 100; i++) s += i; return s", "cell.js"); s.Value != "4950" {
				b.Fatal(s)
			}
			c.Close(ctx)
		}
	})
}

// BenchEvalCompute is guest-bound work: an interpreted loop, a sort and a
// join that loop in QuickJS's C code. It shows what termination checks in
// the guest's loops cost.
func BenchEvalCompute(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	const src = `let s = 0; for (let i = 0; i < 100000; i++) s = (s + i * 7) % 1000003;
const a = Array.from({ length: 20000 }, (_, i) => (i * 7919) % 20011); a.sort((x, y) => x - y);
return s + a.join(",").length`
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		e := tg.Shared(b)
		for b.Loop() {
			c, _ := e.NewCell(ctx, abi.Limits{}, nil)
			if s := c.Run(ctx, src, "cell.js"); s.Status != abi.StepCompleted {
				b.Fatal(s)
			}
			c.Close(ctx)
		}
	})
}

// BenchHostRoundTrip is one asynchronous request: settle a ticket, run the
// guest's continuation, and take its next request.
func BenchHostRoundTrip(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		h := &Host{}
		c, s := RunCell(b, tg.Shared(b), h, "const b = __cm_bridge; let n = 0; for (;;) { n += await b.request('x', ''); }")
		defer c.Close(ctx)
		if s.Status != abi.StepPending {
			b.Fatal(s)
		}
		for b.Loop() {
			if s := c.Settle(ctx, h.Next, abi.Resolve("1")); s.Status != abi.StepPending {
				b.Fatal(s)
			}
		}
	})
}

// BenchHostCall is the cost of one synchronous guest-to-host call (emit) and
// its re-entrant calls back into the guest, amortised over 1,000 calls in
// one cell.
func BenchHostCall(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	const calls = 1000
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		e := tg.Shared(b)
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

func BenchSnapshot(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		img, c := Suspended(b, tg.Shared(b))
		defer c.Close(ctx)
		for b.Loop() {
			var err error
			if img, err = c.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(img)), "bytes/snapshot")
	})
}

func BenchRestore(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		e := tg.Shared(b)
		img := suspendedImage(b, e)
		for b.Loop() {
			r, err := e.Restore(ctx, img, abi.Limits{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			r.Close(ctx)
		}
	})
}

// BenchInterruptLatency reports how long after its deadline an infinite
// loop stops (the bound is 50 ms).
func BenchInterruptLatency(b *testing.B, targets ...*Target) {
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		e := tg.Shared(b)
		var late time.Duration
		for b.Loop() {
			h := &Host{Deadline: time.Now().Add(5 * time.Millisecond)}
			c, s := RunCell(b, e, h, "while (true) {}")
			late += time.Since(h.Deadline)
			c.Close(context.Background())
			if s.Failure == nil || s.Failure.Kind != abi.FailureTimeout {
				b.Fatal(s)
			}
		}
		b.ReportMetric(float64(late.Microseconds())/float64(b.N), "µs-late/op")
	})
}

// BenchEngineNew is an engine start with a warm compilation cache: load the
// compiled module, build the template, close.
func BenchEngineNew(b *testing.B, targets ...*Target) {
	ctx := context.Background()
	dir := b.TempDir()
	onTargets(b, targets, func(b *testing.B, tg *Target) {
		if e, err := tg.New(Options{CacheDir: dir}); err == nil { // warm the cache
			e.Close(ctx)
		}
		for b.Loop() {
			e, err := tg.New(Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			e.Close(ctx)
		}
	})
}
