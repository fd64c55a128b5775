package quickjswasi

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

const twoTickets = `
	const b = __cm_bridge;
	const p1 = b.request("first", "{}");
	const p2 = b.request("second", "{}");
	b.emit("text", "before");
	const [x, y] = await Promise.all([p1, p2]);
	b.emit("text", "after");
	return x.n * 10 + y.n;`

// suspended runs twoTickets to its pending state and snapshots it.
func suspended(t testing.TB, e *Engine) ([]byte, abi.Cell) {
	t.Helper()
	c, s := run(t, e, &testHost{}, twoTickets)
	if s.Status != abi.StepPending {
		t.Fatalf("want pending, got %v %v", s.Status, s.Failure)
	}
	img, err := c.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return img, c
}

func TestSnapshotRestoreInAnotherInstance(t *testing.T) {
	e := engine(t)
	img, orig := suspended(t, e)
	origInstance := orig.(*cell).in
	// Keep the original busy so the restore must use another instance.
	h := &testHost{}
	r, err := e.Restore(context.Background(), img, abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if r.(*cell).in == origInstance {
		t.Fatal("restored into the same instance")
	}
	ctx := context.Background()
	if s := r.Settle(ctx, 2, abi.Resolve(`{"n":2}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s := r.Settle(ctx, 1, abi.Resolve(`{"n":4}`)); s.Status != abi.StepCompleted || s.Value != "42" {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
	if strings.Join(h.output, ",") != "text:after" {
		t.Fatalf("output after restore %v", h.output)
	}
	// The original is independent and still suspended.
	if s := orig.Settle(ctx, 1, abi.Resolve(`{"n":1}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s := orig.Settle(ctx, 2, abi.Resolve(`{"n":1}`)); s.Value != "11" {
		t.Fatal(s)
	}
	orig.Close(ctx)
}

func TestSnapshotPortableAcrossEngines(t *testing.T) {
	img, c := suspended(t, engine(t))
	c.Close(context.Background())
	e2, err := New(context.Background(), &Options{CacheDir: cacheForTests()})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close(context.Background())
	r, err := e2.Restore(context.Background(), img, abi.Limits{}, &testHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	r.Settle(context.Background(), 1, abi.Resolve(`{"n":1}`))
	if s := r.Settle(context.Background(), 2, abi.Resolve(`{"n":3}`)); s.Value != "13" {
		t.Fatal(s)
	}
}

func TestSnapshotIsCompact(t *testing.T) {
	img, c := suspended(t, engine(t))
	c.Close(context.Background())
	if len(img) > 16<<10 {
		t.Fatalf("snapshot of a small suspended cell is %d bytes", len(img))
	}
}

func reseal(b []byte) []byte {
	b = b[:len(b)-4]
	return binary.LittleEndian.AppendUint32(b, image.Checksum(b))
}

func TestRestoreRefusesBadImages(t *testing.T) {
	e := engine(t)
	img, c := suspended(t, e)
	c.Close(context.Background())
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(img)) }
	cases := map[string][]byte{
		"empty":          nil,
		"truncated":      img[:len(img)/2],
		"not a snapshot": mutate(func(b []byte) []byte { b[0] = 'X'; return b }),
		"newer version":  mutate(func(b []byte) []byte { b[4] = 9; return reseal(b) }),
		"corrupted":      mutate(func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }),
		"other template": mutate(func(b []byte) []byte { b[10] ^= 1; return reseal(b) }),
		"bad size":       mutate(func(b []byte) []byte { b[38] ^= 0x7; return reseal(b) }),
		"bad result":     mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[41:], 3); return reseal(b) }),
		"bad payload":    mutate(func(b []byte) []byte { b[image.HeaderSize+5] ^= 0xff; return reseal(b) }),
	}
	want := map[string]string{"newer version": "newer", "other template": "different engine template"}
	for name, b := range cases {
		_, err := e.Restore(context.Background(), b, abi.Limits{}, &testHost{})
		var f *abi.Failure
		if !errors.As(err, &f) || f.Kind != abi.FailureSnapshot || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestSnapshotOfFinishedOrUnrunCell(t *testing.T) {
	e := engine(t)
	c, err := e.NewCell(context.Background(), abi.Limits{}, &testHost{})
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

func FuzzDecodeSnapshot(f *testing.F) {
	e := engine(f)
	img, c := suspended(f, e)
	c.Close(context.Background())
	f.Add(img)
	f.Add(img[:image.HeaderSize+4])
	f.Add([]byte("CMSN\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := e.Restore(context.Background(), b, abi.Limits{}, &testHost{})
		if err == nil {
			// Only a faithful image restores; it must still behave.
			r.Settle(context.Background(), 1, abi.Resolve(`{"n":1}`))
			r.Close(context.Background())
		}
	})
}
