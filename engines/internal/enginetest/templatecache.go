package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// templateEntry finds the one template cache entry under dir (engines keep
// it in their compilation cache directory, which may be a subdirectory).
func templateEntry(t *testing.T, dir string) string {
	t.Helper()
	var found []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".img" {
			found = append(found, p)
		}
		return nil
	})
	if len(found) != 1 {
		t.Fatalf("want one template entry under %s, found %q", dir, found)
	}
	return found[0]
}

// testTemplateCache: a start that loads the template from the cache gets the
// template a build makes (same hash, snapshots cross), without building it;
// a damaged entry is ignored, built again and replaced.
func testTemplateCache(t *testing.T, tg *Target) {
	dir := t.TempDir()
	built := tg.Fresh(t, Options{CacheDir: dir})
	entry := templateEntry(t, dir)
	before, err := os.Stat(entry)
	if err != nil {
		t.Fatal(err)
	}
	loaded := tg.Fresh(t, Options{CacheDir: dir})
	if after, err := os.Stat(entry); err != nil || !os.SameFile(before, after) {
		t.Fatalf("the second start wrote the template again (%v): it did not load it", err)
	}
	if loaded.TemplateHash() != built.TemplateHash() || loaded.QuickJSVersion() != built.QuickJSVersion() {
		t.Fatal("the cached template differs from the built one")
	}
	img, c := Suspended(t, built)
	c.Close(context.Background())
	r, err := loaded.Restore(context.Background(), img, abi.Limits{}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	r.Settle(context.Background(), 1, abi.Resolve(`{"n":1}`))
	if s := r.Settle(context.Background(), 2, abi.Resolve(`{"n":3}`)); s.Value != "13" {
		t.Fatalf("snapshot of a built template in a loaded one: %+v", s)
	}
	r.Close(context.Background())

	for name, damage := range map[string]func(){
		"flipped byte": func() {
			b, _ := os.ReadFile(entry)
			b[len(b)/2] ^= 0x40
			os.WriteFile(entry, b, 0o644)
		},
		"truncated": func() { os.Truncate(entry, 1000) },
		"empty":     func() { os.Truncate(entry, 0) },
	} {
		t.Run(name, func(t *testing.T) {
			damage()
			e := tg.Fresh(t, Options{CacheDir: dir})
			if e.TemplateHash() != built.TemplateHash() {
				t.Fatal("a start on a damaged entry built another template")
			}
			c, s := RunCell(t, e, &Host{}, "return 6 * 7")
			c.Close(context.Background())
			if s.Status != abi.StepCompleted || s.Value != "42" {
				t.Fatalf("cell after a damaged entry: %+v", s)
			}
			if _, err := driver.ReadCache(entry, 1<<30); err != nil {
				t.Fatalf("the damaged entry was not replaced: %v", err)
			}
		})
	}
}
