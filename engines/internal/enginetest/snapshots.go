package enginetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// twoTickets suspends on two requests and reports output on each side of
// them; Math.random in the output shows a restored cell was reseeded.
const twoTickets = `
	const b = __cm_bridge;
	const p1 = b.request("first", "{}");
	const p2 = b.request("second", "{}");
	b.emit("text", "before");
	const [x, y] = await Promise.all([p1, p2]);
	b.emit("text", "after " + Math.random());
	return x.n * 10 + y.n;`

// Suspended runs a cell on e to its pending state on two tickets and
// snapshots it; the cell stays open for the caller.
func Suspended(t testing.TB, e abi.Engine) ([]byte, abi.Cell) {
	t.Helper()
	c, s := RunCell(t, e, &Host{}, twoTickets)
	if s.Status != abi.StepPending {
		t.Fatalf("want pending, got %v %v", s.Status, s.Failure)
	}
	img, err := c.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return img, c
}

// suspendedImage is Suspended with the cell closed.
func suspendedImage(t testing.TB, e abi.Engine) []byte {
	t.Helper()
	img, c := Suspended(t, e)
	c.Close(context.Background())
	return img
}

// finish restores a Suspended image on e and settles both tickets.
func finish(t *testing.T, e abi.Engine, img []byte) {
	t.Helper()
	h := &Host{}
	r, err := e.Restore(context.Background(), img, abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	settleBoth(t, r, h)
}

// settleBoth completes a restored Suspended cell whose host is h.
func settleBoth(t *testing.T, r abi.Cell, h *Host) {
	t.Helper()
	ctx := context.Background()
	if s := r.Settle(ctx, 2, abi.Resolve(`{"n":2}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s := r.Settle(ctx, 1, abi.Resolve(`{"n":4}`)); s.Status != abi.StepCompleted || s.Value != "42" {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
	if len(h.Output) != 1 || !strings.HasPrefix(h.Output[0], "text:after 0.") {
		t.Fatalf("output after restore %v", h.Output)
	}
}

func testSnapshotRestoreInAnotherInstance(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	img, orig := Suspended(t, e)
	origInstance := driver.CellInstance(orig)
	// Keep the original busy so the restore must use another instance.
	h := &Host{}
	r, err := e.Restore(context.Background(), img, abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if driver.CellInstance(r) == origInstance {
		t.Fatal("restored into the same instance")
	}
	settleBoth(t, r, h)
	// The original is independent and still suspended.
	ctx := context.Background()
	if s := orig.Settle(ctx, 1, abi.Resolve(`{"n":1}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s := orig.Settle(ctx, 2, abi.Resolve(`{"n":1}`)); s.Value != "11" {
		t.Fatal(s)
	}
	orig.Close(ctx)
}

func testSnapshotPortableAcrossEngines(t *testing.T, tg *Target) {
	img := suspendedImage(t, tg.Shared(t))
	e2 := tg.Fresh(t, Options{})
	r, err := e2.Restore(context.Background(), img, abi.Limits{}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	r.Settle(context.Background(), 1, abi.Resolve(`{"n":1}`))
	if s := r.Settle(context.Background(), 2, abi.Resolve(`{"n":3}`)); s.Value != "13" {
		t.Fatal(s)
	}
}

func testSnapshotIsCompact(t *testing.T, tg *Target) {
	if img := suspendedImage(t, tg.Shared(t)); len(img) > 16<<10 {
		t.Fatalf("snapshot of a small suspended cell is %d bytes", len(img))
	}
}

func reseal(b []byte) []byte {
	b = b[:len(b)-4]
	return binary.LittleEndian.AppendUint32(b, image.Checksum(b))
}

func testRestoreRefusesBadImages(t *testing.T, tg *Target) {
	e := tg.Shared(t)
	img := suspendedImage(t, e)
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(img)) }
	cases := map[string][]byte{
		"empty":          nil,
		"truncated":      img[:len(img)/2],
		"not a snapshot": mutate(func(b []byte) []byte { b[0] = 'X'; return b }),
		"newer version":  mutate(func(b []byte) []byte { b[4] = 9; return reseal(b) }),
		"corrupted":      mutate(func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }),
		"other template": mutate(func(b []byte) []byte { b[10] ^= 1; return reseal(b) }),
		"bad size":       mutate(func(b []byte) []byte { b[38] ^= 0x7; return reseal(b) }),
		"huge size":      mutate(func(b []byte) []byte { b[40] = 0x7f; b[39] = 0; return reseal(b) }),
		"bad result":     mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[41:], 3); return reseal(b) }),
		"bad payload":    mutate(func(b []byte) []byte { b[image.HeaderSize+5] ^= 0xff; return reseal(b) }),
	}
	want := map[string]string{"newer version": "newer", "other template": "different engine template"}
	for name, b := range cases {
		_, err := e.Restore(context.Background(), b, abi.Limits{}, &Host{})
		var f *abi.Failure
		if !errors.As(err, &f) || f.Kind != abi.FailureSnapshot || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func testSnapshotOfFinishedOrUnrunCell(t *testing.T, tg *Target) {
	c, err := tg.Shared(t).NewCell(context.Background(), abi.Limits{}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(context.Background()); err == nil {
		t.Fatal("snapshot of an unrun cell")
	}
	c.Close(context.Background())
	if _, err := c.Snapshot(context.Background()); err == nil {
		t.Fatal("snapshot of a closed cell")
	}
}

// FuzzRestore feeds arbitrary images to Restore: it must refuse or restore
// a cell that still behaves, never panic.
func FuzzRestore(f *testing.F, tg *Target) {
	e := tg.Shared(f)
	img := suspendedImage(f, e)
	f.Add(img)
	f.Add(img[:image.HeaderSize+4])
	f.Add([]byte("CMSN\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := e.Restore(context.Background(), b, abi.Limits{}, &Host{})
		if err == nil {
			// Only a faithful image restores; it must still behave.
			r.Settle(context.Background(), 1, abi.Resolve(`{"n":1}`))
			r.Close(context.Background())
		}
	})
}

// TestInterchange checks that two targets on different runtimes build the
// same template and restore each other's snapshots.
func TestInterchange(t *testing.T, a, b *Target) {
	ea, eb := a.Shared(t), b.Shared(t)
	if ea.TemplateHash() != eb.TemplateHash() {
		t.Fatalf("%s and %s built different templates: snapshots would not be portable", a.Name, b.Name)
	}
	if ea.QuickJSVersion() != eb.QuickJSVersion() {
		t.Fatal("different QuickJS versions")
	}
	t.Run(a.Name+" to "+a.Name, func(t *testing.T) { finish(t, ea, suspendedImage(t, ea)) })
	t.Run(a.Name+" to "+b.Name, func(t *testing.T) { finish(t, eb, suspendedImage(t, ea)) })
	t.Run(b.Name+" to "+a.Name, func(t *testing.T) { finish(t, ea, suspendedImage(t, eb)) })
	t.Run("round trip", func(t *testing.T) {
		// a -> b -> a, settling one ticket on each side.
		r, err := eb.Restore(context.Background(), suspendedImage(t, ea), abi.Limits{}, &Host{})
		if err != nil {
			t.Fatal(err)
		}
		if s := r.Settle(context.Background(), 2, abi.Resolve(`{"n":2}`)); s.Status != abi.StepPending {
			t.Fatal(s)
		}
		img2, err := r.Snapshot(context.Background())
		r.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		r, err = ea.Restore(context.Background(), img2, abi.Limits{}, &Host{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		if s := r.Settle(context.Background(), 1, abi.Resolve(`{"n":4}`)); s.Value != "42" {
			t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
		}
	})
	t.Run("timers and stored values across runtimes", func(t *testing.T) {
		// Timers and store/load live in the VM as callbacks and promises,
		// with the host holding only tickets: a snapshot carries them from
		// one runtime to the other and back.
		const src = `
			const fired = [];
			setTimeout((v) => fired.push(v), 60000, "due");
			const gone = setTimeout(() => fired.push("cleared"), 60000);
			await store("k", 41);
			clearTimeout(gone);
			const v = await load("k");
			await new Promise((r) => setTimeout(r, 0));
			return [fired, v];`
		ctx := context.Background()
		move := func(c abi.Cell, to abi.Engine, next abi.Ticket) (abi.Cell, *Host) {
			img, err := c.Snapshot(ctx)
			c.Close(ctx)
			if err != nil {
				t.Fatal(err)
			}
			h := &Host{Next: next}
			r, err := to.Restore(ctx, img, abi.Limits{}, h)
			if err != nil {
				t.Fatal(err)
			}
			return r, h
		}
		c, s := RunCell(t, ea, &Host{}, src) // tickets 1, 2: timers; 3: store
		if s.Status != abi.StepPending {
			t.Fatal(s)
		}
		c, h := move(c, eb, 3)
		if s = c.Settle(ctx, 3, abi.Resolve(`null`)); s.Status != abi.StepPending { // 4: timer_clear, 5: load
			t.Fatal(s)
		}
		if len(h.Requests) != 2 || h.Requests[0].Op != "timer_clear" || h.Requests[1].Op != "load" {
			t.Fatalf("requests after the first move: %+v", h.Requests)
		}
		c, _ = move(c, ea, 5)
		defer c.Close(ctx)
		c.Settle(ctx, 1, abi.Resolve(`null`))
		c.Settle(ctx, 2, abi.Resolve(`null`))                                       // the cleared timer's ticket: its callback must not run
		if s = c.Settle(ctx, 5, abi.Resolve(`[41]`)); s.Status != abi.StepPending { // 6: the zero timer
			t.Fatal(s)
		}
		if s = c.Settle(ctx, 6, abi.Resolve(`null`)); s.Status != abi.StepCompleted || s.Value != `[["due"],41]` {
			t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
		}
	})
	t.Run("same bytes", func(t *testing.T) {
		// The same state encodes to the same image on both runtimes.
		const src = "globalThis.k = 7; await __cm_bridge.request('x', '{}'); return k"
		snap := func(e abi.Engine) []byte {
			c, s := RunCell(t, e, &Host{}, src)
			defer c.Close(context.Background())
			if s.Status != abi.StepPending {
				t.Fatal(s)
			}
			img, err := c.Snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return img
		}
		x, y := snap(ea), snap(eb)
		// Math.random's reseeded state differs per cell; everything else is
		// equal, so the images have the same header and size.
		if !bytes.Equal(x[:image.HeaderSize], y[:image.HeaderSize]) {
			t.Fatalf("headers differ:\n%x\n%x", x[:image.HeaderSize], y[:image.HeaderSize])
		}
	})
}
