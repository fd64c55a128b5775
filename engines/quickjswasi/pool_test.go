package quickjswasi

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
)

func TestThousandCellsDoNotGrowHostMemory(t *testing.T) {
	e := engine(t)
	cellOnce := func(i int) {
		c, s := run(t, e, &testHost{}, fmt.Sprintf("const a = []; for (let i = 0; i < 1000; i++) a.push({i, s: 'x' + i}); return a.length + %d", i))
		if s.Status != abi.StepCompleted {
			t.Fatal(s.Failure)
		}
		c.Close(context.Background())
	}
	for i := range 50 { // warm the pool
		cellOnce(i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 1000 {
		cellOnce(i)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	// Bound: the pool's idle instances are already live; 1,000 cells may add
	// garbage-collected churn but no retained growth beyond 8 MiB.
	if grow := int64(after.HeapInuse) - int64(before.HeapInuse); grow > 8<<20 {
		t.Fatalf("host heap grew by %d bytes over 1,000 cells", grow)
	}
}

func TestCellsInParallel(t *testing.T) {
	e := engine(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				h := &testHost{}
				c, err := e.NewCell(context.Background(), abi.Limits{}, h)
				if err != nil {
					errs <- err
					return
				}
				s := c.Run(context.Background(), fmt.Sprintf("return (await __cm_bridge.request('x', '%d')) + %d", g, i), "cell.js")
				if s.Status == abi.StepPending {
					if i%2 == 0 { // half of them go through a snapshot
						img, err := c.Snapshot(context.Background())
						c.Close(context.Background())
						if err != nil {
							errs <- err
							return
						}
						if c, err = e.Restore(context.Background(), img, abi.Limits{}, h); err != nil {
							errs <- err
							return
						}
					}
					s = c.Settle(context.Background(), 1, abi.Resolve(fmt.Sprint(g*1000)))
				}
				c.Close(context.Background())
				if want := fmt.Sprint(g*1000 + i); s.Value != want {
					errs <- fmt.Errorf("goroutine %d cell %d: got %q %v, want %s", g, i, s.Value, s.Failure, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestGrownInstanceIsDropped(t *testing.T) {
	e := engine(t)
	c, s := run(t, e, &testHost{}, "globalThis.big = new Uint8Array(12 << 20); return big.length")
	if s.Status != abi.StepCompleted {
		t.Fatal(s.Failure)
	}
	in := c.(*cell).in
	c.Close(context.Background())
	for range 2*e.opts.MaxIdle + 1 {
		c, _ := run(t, e, &testHost{}, "return typeof big")
		if c.(*cell).in == in {
			t.Fatal("an instance grown past the bound was pooled")
		}
		c.Close(context.Background())
	}
}

func TestResetCleansState(t *testing.T) {
	e := engine(t)
	c, _ := run(t, e, &testHost{}, "globalThis.junk = new Uint8Array(1 << 20).fill(7); Object.prototype.evil = 1; return 1")
	c.Close(context.Background())
	for range 2 * e.opts.MaxIdle {
		if s := runValue(t, "return [typeof junk, ({}).evil === undefined]"); s.Value != `["undefined",true]` {
			t.Fatalf("state leaked between cells: %s", s.Value)
		}
	}
}
