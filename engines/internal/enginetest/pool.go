package enginetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

func testInstanceSurvivesLimits(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	for _, src := range []string{
		"function f() { return f() } f()",
		"let s = 'x'; while (true) s += s;",
		"const a = []; while (true) a.push(new Array(1000).fill(1));",
	} {
		c, s := RunCell(t, e, &Host{}, src)
		if s.Status != abi.StepFailed {
			t.Fatalf("%q: %v", src, s)
		}
		// The same instance still runs code before it goes back to the pool.
		if !driver.CellInstance(c).Alive() {
			t.Fatalf("%q: instance unusable afterwards", src)
		}
		c.Close(context.Background())
	}
	if s := runValue(t, tg, "return 5"); s.Value != "5" {
		t.Fatal(s)
	}
}

func testTrapKillsOnlyItsInstance(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	c, err := e.NewCell(context.Background(), abi.Limits{}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	in := driver.CellInstance(c)
	in.Module().SetStackPointer(16) // the next call runs off the bottom of the C stack
	s := c.Run(context.Background(), "return 1", "cell.js")
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTrap || !errors.Is(s.Failure, abi.CodeRuntimeUnavailable) {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	c.Close(context.Background())
	for range 2*e.MaxIdle() + 1 { // the dead instance is never handed out again
		c, s := RunCell(t, e, &Host{}, "return 2")
		if driver.CellInstance(c) == in || s.Value != "2" {
			t.Fatal("trapped instance reused or pool broken")
		}
		c.Close(context.Background())
	}
}

func testMathRandomDiffers(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	seen := map[string]bool{}
	for range 20 {
		s := runValue(t, tg, "return [Math.random(), Math.random()]")
		if seen[s.Value] {
			t.Fatalf("Math.random repeated %s", s.Value)
		}
		seen[s.Value] = true
	}
	h := &Host{}
	c, s := RunCell(t, e, h, "await __cm_bridge.request('x', '1'); return Math.random()")
	if s.Status != abi.StepPending {
		t.Fatal(s)
	}
	img, err := c.Snapshot(context.Background())
	c.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]bool{}
	for range 5 {
		r, err := e.Restore(context.Background(), img, abi.Limits{}, h)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Settle(context.Background(), 1, abi.Resolve("1"))
		r.Close(context.Background())
		if values[s.Value] {
			t.Fatalf("restores repeated Math.random %s", s.Value)
		}
		values[s.Value] = true
	}
}

func testTemplateIsDeterministic(t *testing.T, tg *Target) {
	e2 := tg.Fresh(t, Options{})
	if e2.TemplateHash() != tg.Shared(t).TemplateHash() {
		t.Fatal("two engines built different templates: snapshots would not be portable")
	}
	if v := e2.QuickJSVersion(); v == "" {
		t.Fatal("no QuickJS version")
	}
}

func testEngineClose(t *testing.T, tg *Target) {
	e, err := tg.New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewCell(context.Background(), abi.Limits{}, nil); !errors.Is(err, abi.CodeRuntimeUnavailable) {
		t.Fatalf("closed engine gave %v", err)
	}
}

func testThousandCells(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	cellOnce := func(i int) {
		c, s := RunCell(t, e, &Host{}, fmt.Sprintf("const a = []; for (let i = 0; i < 1000; i++) a.push({i, s: 'x' + i}); return a.length + %d", i))
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

func testCellsInParallel(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				h := &Host{}
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

func testGrownInstanceIsDropped(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	c, s := RunCell(t, e, &Host{}, "globalThis.big = new Uint8Array(12 << 20); return big.length")
	if s.Status != abi.StepCompleted {
		t.Fatal(s.Failure)
	}
	in := driver.CellInstance(c)
	c.Close(context.Background())
	for range 2*e.MaxIdle() + 1 {
		c, _ := RunCell(t, e, &Host{}, "return typeof big")
		if driver.CellInstance(c) == in {
			t.Fatal("an instance grown past the bound was pooled")
		}
		c.Close(context.Background())
	}
}

func testResetCleansState(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	c, _ := RunCell(t, e, &Host{}, "globalThis.junk = new Uint8Array(1 << 20).fill(7); Object.prototype.evil = 1; return 1")
	c.Close(context.Background())
	for range 2 * e.MaxIdle() {
		if s := runValue(t, tg, "return [typeof junk, ({}).evil === undefined]"); s.Value != `["undefined",true]` {
			t.Fatalf("state leaked between cells: %s", s.Value)
		}
	}
}

// A reset returns malloc's state to the template's but not the memory's size,
// so a cell that grows memory leaves pages malloc no longer knows, and the
// next such cell grows again past them. Cells whose heap fits the template's
// headroom must not grow a pooled instance at all (each growth copied the
// whole memory, and the instance was dropped once it had crept past the
// bound).
func testModestHeapUseDoesNotCreep(t *testing.T, tg *Target) {
	e := tg.Fresh(t, Options{})
	const cell = "const a = []; for (let i = 0; i < 700; i++) a.push({ id: 'tool_' + i, text: 'x'.repeat(40) }); return a.length"
	var in *driver.Instance
	var size int
	for i := range 12 {
		c, s := RunCell(t, e, &Host{}, cell)
		if s.Status != abi.StepCompleted {
			t.Fatal(s.Failure)
		}
		got, n := driver.CellInstance(c), len(driver.CellInstance(c).Module().Memory())
		c.Close(context.Background())
		if i == 0 {
			in, size = got, n
			continue
		}
		if got != in || n != size {
			t.Fatalf("cell %d: memory %d bytes (first cell: %d), same instance %v", i, n, size, got == in)
		}
	}
}
