package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
)

func TestMemoryPins(t *testing.T) {
	storetest.Pins(t, func(*testing.T) store.Pins { return store.NewMemoryPins() })
}

func TestFilePins(t *testing.T) {
	storetest.Pins(t, func(t *testing.T) store.Pins { return store.NewFilePins(filepath.Join(t.TempDir(), "pins.json")) })
}

// A second store on the same file (another process: serve and `codemode
// tools approve`) sees what the first wrote.
func TestFilePinsShared(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pins.json")
	a, b := store.NewFilePins(path), store.NewFilePins(path)
	if err := a.Put(ctx, store.Pin{ID: "mcp:s:t", Definition: store.Definition{Hash: "h1"}, Changed: &store.Definition{Hash: "h2"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Approve(ctx, b, "mcp:s:t", "h2"); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := a.Get(ctx, "mcp:s:t"); p.Hash != "h2" || p.Changed != nil {
		t.Fatalf("the approval is not seen: %+v", p)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("pin file mode: %v %v", fi.Mode(), err)
	}
}

// A broken or oversized pin file is an error, never "no pins" (which would
// pin whatever the server now says).
func TestFilePinsHostile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte(`{"pins": [`), 0o600)
	if _, _, err := store.NewFilePins(broken).Get(ctx, "x"); err == nil || !strings.Contains(err.Error(), "broken.json") {
		t.Fatalf("broken file: %v", err)
	}
	huge := filepath.Join(dir, "huge.json")
	os.WriteFile(huge, make([]byte, 17<<20), 0o600)
	if _, err := store.NewFilePins(huge).List(ctx); err == nil {
		t.Fatal("an oversized pin file was read")
	}
}
