//go:build wasmtime

package wasmtime

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

const twoTickets = `
	const b = __cm_bridge;
	const p1 = b.request("first", "{}");
	const p2 = b.request("second", "{}");
	b.emit("text", "before");
	const [x, y] = await Promise.all([p1, p2]);
	b.emit("text", "after " + Math.random());
	return x.n * 10 + y.n;`

var (
	wazeroOnce sync.Once
	wazero     *quickjswasi.Engine
	wazeroErr  error
)

// wazeroEngine is the reference engine, built with the same heap default as
// engine so that both templates are equal.
func wazeroEngine(t testing.TB) *quickjswasi.Engine {
	t.Helper()
	wazeroOnce.Do(func() {
		wazero, wazeroErr = quickjswasi.New(context.Background(), &quickjswasi.Options{
			CacheDir: os.Getenv(CacheDirEnv), Limits: abi.Limits{MemoryBytes: 16 << 20}})
	})
	if wazeroErr != nil {
		t.Fatal(wazeroErr)
	}
	return wazero
}

// suspended runs twoTickets to its pending state on e and snapshots it.
func suspended(t testing.TB, e abi.Engine) []byte {
	t.Helper()
	c, s := run(t, e, &testHost{}, twoTickets)
	defer c.Close(context.Background())
	if s.Status != abi.StepPending {
		t.Fatalf("want pending, got %v %v", s.Status, s.Failure)
	}
	img, err := c.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// finish restores img on e and settles both tickets.
func finish(t *testing.T, e abi.Engine, img []byte) {
	t.Helper()
	h := &testHost{}
	r, err := e.Restore(context.Background(), img, abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	ctx := context.Background()
	if s := r.Settle(ctx, 2, abi.Resolve(`{"n":2}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s := r.Settle(ctx, 1, abi.Resolve(`{"n":4}`)); s.Status != abi.StepCompleted || s.Value != "42" {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
	if len(h.output) != 1 || !strings.HasPrefix(h.output[0], "text:after 0.") {
		t.Fatalf("output after restore %v", h.output)
	}
}

func TestTemplateMatchesWazero(t *testing.T) {
	if engine(t).TemplateHash() != wazeroEngine(t).TemplateHash() {
		t.Fatal("wasmtime and wazero built different templates: snapshots would not be portable")
	}
	if engine(t).QuickJSVersion() != wazeroEngine(t).QuickJSVersion() {
		t.Fatal("different QuickJS versions")
	}
}

func TestSnapshotInterchange(t *testing.T) {
	wasmtime, wazero := engine(t), wazeroEngine(t)
	t.Run("wasmtime to wasmtime", func(t *testing.T) { finish(t, wasmtime, suspended(t, wasmtime)) })
	t.Run("wasmtime to wazero", func(t *testing.T) { finish(t, wazero, suspended(t, wasmtime)) })
	t.Run("wazero to wasmtime", func(t *testing.T) { finish(t, wasmtime, suspended(t, wazero)) })
	t.Run("round trip", func(t *testing.T) {
		// wasmtime -> wazero -> wasmtime, settling one ticket on each side.
		img := suspended(t, wasmtime)
		r, err := wazero.Restore(context.Background(), img, abi.Limits{}, &testHost{})
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
		r, err = wasmtime.Restore(context.Background(), img2, abi.Limits{}, &testHost{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		if s := r.Settle(context.Background(), 1, abi.Resolve(`{"n":4}`)); s.Value != "42" {
			t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
		}
	})
	t.Run("same bytes", func(t *testing.T) {
		// The same state encodes to the same image on both runtimes.
		const src = "globalThis.k = 7; await __cm_bridge.request('x', '{}'); return k"
		snap := func(e abi.Engine) []byte {
			c, err := e.NewCell(context.Background(), abi.Limits{}, &testHost{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(context.Background())
			c.Run(context.Background(), src, "cell.js")
			img, err := c.Snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return img
		}
		a, b := snap(wasmtime), snap(wazero)
		// Math.random's reseeded state differs per cell; everything else is
		// equal, so the images have the same header and size.
		if !bytes.Equal(a[:image.HeaderSize], b[:image.HeaderSize]) {
			t.Fatalf("headers differ:\n%x\n%x", a[:image.HeaderSize], b[:image.HeaderSize])
		}
	})
}

func TestSnapshotRestoreMathRandomDiffers(t *testing.T) {
	e := engine(t)
	h := &testHost{}
	c, s := run(t, e, h, "await __cm_bridge.request('x', '1'); return Math.random()")
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

func TestRestoreRefusesBadImages(t *testing.T) {
	e := engine(t)
	img := suspended(t, e)
	reseal := func(b []byte) []byte {
		b = b[:len(b)-4]
		return append(b, byte(image.Checksum(b)), byte(image.Checksum(b)>>8), byte(image.Checksum(b)>>16), byte(image.Checksum(b)>>24))
	}
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(img)) }
	cases := map[string][]byte{
		"empty":          nil,
		"truncated":      img[:len(img)/2],
		"corrupted":      mutate(func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }),
		"other template": mutate(func(b []byte) []byte { b[10] ^= 1; return reseal(b) }),
		"huge size":      mutate(func(b []byte) []byte { b[40] = 0x7f; b[39] = 0; return reseal(b) }),
	}
	for name, b := range cases {
		_, err := e.Restore(context.Background(), b, abi.Limits{}, &testHost{})
		var f *abi.Failure
		if !errors.As(err, &f) || f.Kind != abi.FailureSnapshot {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestSnapshotOfUnrunOrClosedCell(t *testing.T) {
	c, err := engine(t).NewCell(context.Background(), abi.Limits{}, &testHost{})
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
