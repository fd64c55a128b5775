package quickjswasi

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/tetratelabs/wazero"
)

// TestCompilationCacheReadsOnce: the one-read wrapper goes in (a wazero
// upgrade that moves its private field fails here, not silently slower),
// and engines start from a warm entry, a damaged one and a swollen one.
func TestCompilationCacheReadsOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !readOnce(cache) {
		t.Fatal("wazero's file cache could not be wrapped")
	}
	if !readOnce(cache) {
		t.Fatal("wrapping wazero's file cache a second time failed")
	}
	cache.Close(ctx)

	run := func(what string) {
		t.Helper()
		e, err := New(ctx, &Options{CacheDir: dir})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer e.Close(ctx)
		c, err := e.NewCell(ctx, abi.Limits{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer c.Close(ctx)
		if s := c.Run(ctx, "return 6 * 7", "cell.js"); s.Value != "42" {
			t.Fatalf("%s: %+v", what, s)
		}
	}
	run("cold")
	run("warm")
	entries, _ := filepath.Glob(filepath.Join(dir, "wazero-*", "*"))
	if len(entries) != 1 {
		t.Fatalf("compilation cache entries: %v", entries)
	}
	b, _ := os.ReadFile(entries[0])
	b[len(b)/2] ^= 0xff // in the code: wazero's checksum refuses it
	os.WriteFile(entries[0], b, 0o600)
	run("damaged")
	os.WriteFile(entries[0], append(b, make([]byte, 1<<20)...), 0o600)
	run("swollen")
}
