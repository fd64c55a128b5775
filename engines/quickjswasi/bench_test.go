package quickjswasi

import (
	"context"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

func BenchmarkCellStart(b *testing.B) {
	ctx := context.Background()
	b.Run("pooled", func(b *testing.B) {
		e := engine(b)
		for b.Loop() {
			c, err := e.NewCell(ctx, abi.Limits{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			c.Close(ctx)
		}
	})
	b.Run("cold", func(b *testing.B) {
		e := engine(b)
		for b.Loop() {
			in, err := e.instantiate(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if err := e.tmpl.load(in); err != nil {
				b.Fatal(err)
			}
			in.mod.Close(ctx)
		}
	})
}

func BenchmarkEvalSmall(b *testing.B) {
	ctx := context.Background()
	e := engine(b)
	for b.Loop() {
		c, _ := e.NewCell(ctx, abi.Limits{}, nil)
		if s := c.Run(ctx, "let s = 0; for (let i = 0; i < 100; i++) s += i; return s", "cell.js"); s.Value != "4950" {
			b.Fatal(s)
		}
		c.Close(ctx)
	}
}

func BenchmarkHostRoundTrip(b *testing.B) {
	ctx := context.Background()
	e := engine(b)
	h := &testHost{}
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
}

func BenchmarkSnapshot(b *testing.B) {
	ctx := context.Background()
	e := engine(b)
	img, c := suspended(b, e)
	defer c.Close(ctx)
	for b.Loop() {
		var err error
		if img, err = c.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(img)), "bytes/snapshot")
}

func BenchmarkRestore(b *testing.B) {
	ctx := context.Background()
	e := engine(b)
	img, c := suspended(b, e)
	c.Close(ctx)
	for b.Loop() {
		r, err := e.Restore(ctx, img, abi.Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		r.Close(ctx)
	}
}

// BenchmarkInterruptLatency reports how long after its deadline an infinite
// loop stops (the bound is 50 ms).
func BenchmarkInterruptLatency(b *testing.B) {
	e := engine(b)
	var late time.Duration
	for b.Loop() {
		h := &testHost{deadline: time.Now().Add(5 * time.Millisecond)}
		c, s := run(b, e, h, "while (true) {}")
		late += time.Since(h.deadline)
		c.Close(context.Background())
		if s.Failure == nil || s.Failure.Kind != abi.FailureTimeout {
			b.Fatal(s)
		}
	}
	b.ReportMetric(float64(late.Microseconds())/float64(b.N), "µs-late/op")
}
