package enginetest

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// Resets and snapshots look only at the pages the kernel saw written (the
// template is mapped copy-on-write, package cowmem), or compare every page
// where it cannot. These cells write in every way they can; afterwards memory
// must be the template's byte for byte, on both paths.

// scattered writes pages across the whole heap, from the host (long strings
// passed in) and the guest (typed arrays, objects, a regex), and leaves
// garbage in the template's own objects.
const scattered = `
const keep = [];
for (let i = 0; i < 64; i++) keep.push(new Uint8Array(4096 * (1 + (i % 5))).fill(i + 1));
for (let i = 0; i < 2000; i++) keep.push({ i, s: "v" + i });
Object.prototype.leak = 1; globalThis.leak = keep; Math.leak = /a+b/.exec("aaab");
return keep.length`

// greedy grows memory past the template by a few MiB, writing every page of it
// (the pool keeps instances up to 8 MiB past the template), then adds small objects.
const greedy = `
const keep = [];
for (let i = 0; i < 8; i++) keep.push(new Uint8Array(256 << 10).fill(0x5a));
for (let i = 0; i < 5000; i++) keep.push({ s: "x" + i });
globalThis.leak = keep;
return keep.length`

func testResetRestoresTemplate(t *testing.T, tg *Target) {
	for _, tc := range []struct {
		name, src string
		plain     bool // compare every page, as without copy-on-write
	}{
		{"scattered", scattered, false},
		{"greedy", greedy, false},
		{"scattered/compare", scattered, true},
		{"greedy/compare", greedy, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tg.Fresh(t, Options{})
			tmpl, sp := e.Template()
			for round := range 2 { // the same instance, written again after a reset
				c, err := e.NewCell(context.Background(), abi.Limits{}, &Host{})
				if err != nil {
					t.Fatal(err)
				}
				in := driver.CellInstance(c)
				if m, ok := in.Module().(driver.Mappable); ok && m.Mappable() && runtime.GOOS == "linux" && !tc.plain && !in.Mapped() {
					t.Fatal("template not mapped copy-on-write on Linux")
				}
				if tc.plain {
					in.Unmap()
				}
				if s := c.Run(context.Background(), tc.src, "cell.js"); s.Status != abi.StepCompleted {
					t.Fatal(s.Status, s.Failure)
				}
				mem := in.Module().Memory()
				if round == 0 && tc.src == greedy && len(mem) <= len(tmpl) {
					t.Fatal("the cell did not grow memory")
				}
				if !in.Reset() {
					t.Fatalf("round %d: instance of %d bytes refused by reset", round, len(mem))
				}
				mem = in.Module().Memory()
				if !bytes.Equal(mem[sp:len(tmpl)], tmpl[sp:]) {
					t.Fatalf("round %d: memory differs from the template after reset", round)
				}
				if !allZero(mem[len(tmpl):]) {
					t.Fatalf("round %d: memory past the template not zeroed", round)
				}
				c.Close(context.Background())
			}
			if s := runValue2(t, e, "return [typeof leak, ({}).leak, Math.leak]"); s.Value != `["undefined",null,null]` {
				t.Fatalf("state leaked between cells: %s", s.Value)
			}
		})
	}
}

// testSnapshotAfterWrites snapshots a cell whose instance earlier cells
// wrote all over, and restores it on a fresh engine that never ran a cell.
func testSnapshotAfterWrites(t *testing.T, tg *Target) {
	e := tg.Fresh(t, Options{})
	for _, src := range []string{scattered, greedy, scattered} {
		c, _ := RunCell(t, e, &Host{}, src)
		c.Close(context.Background())
	}
	c, s := RunCell(t, e, &Host{}, "globalThis.x = 'kept ' + 6 * 7; await __cm_bridge.request('x', ''); return [x, typeof leak]")
	defer c.Close(context.Background())
	if s.Status != abi.StepPending {
		t.Fatal(s.Status, s.Failure)
	}
	img, err := c.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, err := tg.Fresh(t, Options{}).Restore(context.Background(), img, abi.Limits{}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if s := r.Settle(context.Background(), 1, abi.Resolve("1")); s.Value != `["kept 42","undefined"]` {
		t.Fatalf("restored %v %s", s.Failure, s.Value)
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func runValue2(t *testing.T, e abi.Engine, src string) abi.Step {
	t.Helper()
	c, s := RunCell(t, e, &Host{}, src)
	c.Close(context.Background())
	return s
}
