package driver

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

func TestBuildIDFound(t *testing.T) {
	// A test binary is linked by the go command like any other, so it has one.
	if buildID() == "" {
		t.Fatal("no build ID in the test binary: nothing would be cached")
	}
	dir := t.TempDir()
	a, b := CacheFile(dir, "k", ".x", "ab", "c"), CacheFile(dir, "k", ".x", "a", "bc")
	if a == "" || a == b || filepath.Dir(a) != dir {
		t.Fatalf("entries %q and %q", a, b)
	}
	if CacheFile("", "k", ".x", "a") != "" {
		t.Fatal("an entry without a directory")
	}
}

func TestCacheEntryChecks(t *testing.T) {
	path := CacheFile(t.TempDir(), "k", ".x", "a")
	if _, err := ReadCache(path, 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing entry: %v", err)
	}
	payload := bytes.Repeat([]byte("payload"), 1000)
	if err := WriteCache(path, payload); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadCache(path, 1<<20); err != nil || !bytes.Equal(b, payload) {
		t.Fatalf("read back %d bytes, %v", len(b), err)
	}
	if _, err := ReadCache(path, 100); err == nil {
		t.Fatal("an entry over the limit was read")
	}
	good, _ := os.ReadFile(path)
	for name, b := range map[string][]byte{
		"flipped":   append(append([]byte{}, good[:10]...), append([]byte{good[10] ^ 1}, good[11:]...)...),
		"truncated": good[:len(good)/2],
		"short":     good[:5],
		"empty":     nil,
	} {
		os.WriteFile(path, b, 0o644)
		if _, err := ReadCache(path, 1<<20); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s entry: %v", name, err)
		}
	}
}

func TestCachePrunesOldEntries(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other-1.x")
	os.WriteFile(other, nil, 0o644)
	old := time.Now().Add(-time.Hour)
	var paths []string
	for i := range maxCacheKeep + 3 {
		p := filepath.Join(dir, fmt.Sprintf("k-%02d.x", i))
		if err := WriteCache(p, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
		// Distinct ages, the newest last, whatever the file system's clock.
		os.Chtimes(p, old.Add(time.Duration(i)*time.Minute), old.Add(time.Duration(i)*time.Minute))
		paths = append(paths, p)
	}
	for i, p := range paths {
		_, err := os.Stat(p)
		if kept := i >= len(paths)-maxCacheKeep; kept != (err == nil) {
			t.Errorf("entry %d: kept=%v, stat %v", i, kept, err)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatal("an entry of another kind was pruned")
	}
}

func TestTemplateEntryRoundTrip(t *testing.T) {
	tm := &template{version: "v-test", settle: 1, encode: 2, describe: 3, reseed: 4, undef: 5,
		trueBox: 6, falseBox: 7, scratch: 8, stage: 9, messageKey: 10}
	tm.Mem = make([]byte, 2*image.WasmPage)
	tm.Mem[5] = 1
	tm.Mem[image.WasmPage+3*image.PageSize+7] = 2
	tm.SP = image.WasmPage
	tm.Hash = image.Hash(tm.Mem, tm.metaValues())
	pages := nonZero(tm.Mem)
	if fmt.Sprint(pages) != fmt.Sprint([]int32{0, 16 + 3}) {
		t.Fatalf("non-zero pages %v", pages)
	}
	b := tm.marshal(pages)
	if len(b) > 3*image.PageSize {
		t.Fatalf("an entry with two non-zero pages takes %d bytes", len(b))
	}
	path := filepath.Join(t.TempDir(), "template-1.img")
	if err := WriteCache(path, b); err != nil {
		t.Fatal(err)
	}
	got, gotPages, err := readTemplate(path)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gotPages) != fmt.Sprint(pages) || !bytes.Equal(got.Mem, tm.Mem) || got.Hash != tm.Hash || got.version != tm.version ||
		fmt.Sprint(got.metaValues()) != fmt.Sprint(tm.metaValues()) {
		t.Fatalf("read back %+v", got)
	}
	// An entry whose checksum holds but whose layout does not is refused too.
	for name, bad := range map[string][]byte{
		"page past the end": func() []byte {
			c := bytes.Clone(b)
			c[4*11+1+len(tm.version)+32+8] = 200 // first page index
			return c
		}(),
		"pages out of order": func() []byte {
			c := bytes.Clone(b)
			binary.LittleEndian.PutUint32(c[4*11+1+len(tm.version)+32+8+4:], 0) // second page index
			return c
		}(),
		"cut": b[:len(b)-1],
	} {
		WriteCache(path, bad)
		if _, _, err := readTemplate(path); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}
