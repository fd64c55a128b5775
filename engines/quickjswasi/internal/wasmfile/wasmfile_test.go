package wasmfile

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The unit tests pin a made-up module; the real one is exercised by
// package quickjswasi's tests.
var (
	fake    = []byte("\x00asm\x01\x00\x00\x00 a stand-in for quickjs.wasm")
	fakePin = Pin{Version: "0.0.0-test", SHA256: sum(fake)}
)

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

type entry struct {
	name string
	body []byte
	typ  byte
	size int64 // header size when not len(body)
}

// tarball builds a gzip'd tar the way npm pack lays one out.
func tarball(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)), Typeflag: e.typ}
		if e.typ == 0 {
			h.Typeflag = tar.TypeReg
		}
		if e.typ == tar.TypeSymlink {
			h.Size, h.Linkname = 0, "elsewhere"
		}
		if e.size != 0 {
			h.Size = e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := tw.Write(e.body); err != nil && e.size == 0 {
				t.Fatal(err)
			}
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// padded is a tarball whose first entry, of n zero bytes, comes before
// the module: stored uncompressed it is too large to download, compressed
// a gzip bomb.
func padded(t *testing.T, level, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "package/padding", Mode: 0o644, Size: int64(n), Typeflag: tar.TypeReg})
	zero := make([]byte, 1<<20)
	for left := n; left > 0; left -= len(zero) {
		tw.Write(zero[:min(left, len(zero))])
	}
	tw.WriteHeader(&tar.Header{Name: Entry, Mode: 0o644, Size: int64(len(fake)), Typeflag: tar.TypeReg})
	tw.Write(fake)
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func goodTarball(t *testing.T) []byte {
	return tarball(t, entry{name: "package/package.json", body: []byte(`{}`)}, entry{name: Entry, body: fake})
}

// registry serves body at the tarball path of fakePin and counts requests.
type registry struct {
	*httptest.Server
	hits atomic.Int32
}

func serve(t *testing.T, status int, body []byte) *registry {
	r := &registry{}
	want := "/" + Package + "/-/" + Package + "-" + fakePin.Version + ".tgz"
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.hits.Add(1)
		if req.URL.Path != want {
			http.NotFound(w, req)
			return
		}
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(r.Close)
	return r
}

func sources(t *testing.T, reg *registry) Sources {
	return Sources{Env: "TEST_WASM", Cache: filepath.Join(t.TempDir(), "c", "quickjs.wasm"), Registry: reg.URL + "/"}
}

func mustFail(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

func TestLoadBytes(t *testing.T) {
	reg := serve(t, 200, goodTarball(t))
	s := sources(t, reg)
	s.Bytes, s.BytesName = fake, "the Module option"
	if b, err := fakePin.Load(context.Background(), s); err != nil || !bytes.Equal(b, fake) {
		t.Fatalf("good bytes: %v", err)
	}
	s.Bytes = []byte("something else")
	_, err := fakePin.Load(context.Background(), s)
	mustFail(t, err, "the Module option", "want "+fakePin.SHA256, "pass the bytes of quickjs-wasi 0.0.0-test's package/quickjs.wasm")
	if reg.hits.Load() != 0 {
		t.Error("bytes given, yet the registry was asked")
	}
}

// TestLoadEnvFile: the named file is used when right and refused when
// wrong or missing, never passed over for the cache or a download.
func TestLoadEnvFile(t *testing.T) {
	reg := serve(t, 200, goodTarball(t))
	s := sources(t, reg)
	if err := fakePin.Install(s.Cache, fake); err != nil {
		t.Fatal(err)
	}
	s.File = filepath.Join(t.TempDir(), "quickjs.wasm")
	os.WriteFile(s.File, fake, 0o644)
	if b, err := fakePin.Load(context.Background(), s); err != nil || !bytes.Equal(b, fake) {
		t.Fatalf("good file: %v", err)
	}
	os.WriteFile(s.File, append(bytes.Clone(fake), 0), 0o644)
	_, err := fakePin.Load(context.Background(), s)
	mustFail(t, err, "$TEST_WASM ("+s.File+")", "want "+fakePin.SHA256, "refusing to run it",
		"set TEST_WASM to a copy of quickjs-wasi 0.0.0-test's package/quickjs.wasm (sha256 "+fakePin.SHA256+")")
	os.Remove(s.File)
	_, err = fakePin.Load(context.Background(), s)
	mustFail(t, err, s.File, "no such file", "set TEST_WASM")
	os.WriteFile(s.File, make([]byte, MaxSize+1), 0o644)
	_, err = fakePin.Load(context.Background(), s)
	mustFail(t, err, "more than the 4194304 allowed")
	if reg.hits.Load() != 0 {
		t.Error("a file was named, yet the registry was asked")
	}
}

// TestLoadFetchesOnce: an empty cache is filled from the registry once,
// with one notice; the next load reads the cache.
func TestLoadFetchesOnce(t *testing.T) {
	reg := serve(t, 200, goodTarball(t))
	s := sources(t, reg)
	var notices []string
	s.Fetched = func(path string) { notices = append(notices, path) }
	for range 2 {
		if b, err := fakePin.Load(context.Background(), s); err != nil || !bytes.Equal(b, fake) {
			t.Fatalf("load: %v", err)
		}
	}
	if got, _ := os.ReadFile(s.Cache); !bytes.Equal(got, fake) {
		t.Error("the cache does not hold the module")
	}
	if reg.hits.Load() != 1 || len(notices) != 1 || notices[0] != s.Cache {
		t.Errorf("%d requests, notices %q", reg.hits.Load(), notices)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Cache), ".quickjs-*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// TestLoadConcurrent: engines started together in one process download
// once.
func TestLoadConcurrent(t *testing.T) {
	reg := serve(t, 200, goodTarball(t))
	s := sources(t, reg)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := fakePin.Load(context.Background(), s); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := reg.hits.Load(); n != 1 {
		t.Errorf("%d downloads", n)
	}
}

func TestLoadCorruptCache(t *testing.T) {
	reg := serve(t, 200, goodTarball(t))
	s := sources(t, reg)
	os.MkdirAll(filepath.Dir(s.Cache), 0o755)
	os.WriteFile(s.Cache, fake[:10], 0o644) // a torn write
	if b, err := fakePin.Load(context.Background(), s); err != nil || !bytes.Equal(b, fake) {
		t.Fatalf("load: %v", err)
	}
	if got, _ := os.ReadFile(s.Cache); !bytes.Equal(got, fake) {
		t.Error("the corrupted cache file was not replaced")
	}

	// Offline, the same corruption is an error that says what to do.
	os.WriteFile(s.Cache, fake[:10], 0o644)
	reg.Close()
	_, err := fakePin.Load(context.Background(), s)
	mustFail(t, err, "cached "+s.Cache, "want "+fakePin.SHA256, "fetching a fresh copy from "+reg.URL,
		"to run offline, set TEST_WASM to a copy of quickjs-wasi 0.0.0-test's package/quickjs.wasm")
}

func TestLoadNoCacheDir(t *testing.T) {
	s := sources(t, serve(t, 200, goodTarball(t)))
	s.Cache = ""
	_, err := fakePin.Load(context.Background(), s)
	mustFail(t, err, "no user cache directory", "set TEST_WASM")
}

// TestFetchRefuses: whatever is wrong with the download, nothing is
// written and the error says why and how to run offline.
func TestFetchRefuses(t *testing.T) {
	big := make([]byte, MaxSize+1)
	cases := []struct {
		name   string
		status int
		body   []byte
		want   string
	}{
		{"not found", 404, nil, "404 Not Found"},
		{"wrong module", 200, tarball(t, entry{name: Entry, body: []byte("other")}), "(nothing was written)"},
		{"no module", 200, tarball(t, entry{name: "package/README.md", body: []byte("hi")}), "the tarball has no package/quickjs.wasm"},
		{"entry too large", 200, tarball(t, entry{name: Entry, body: big}), "more than the 4194304 allowed"},
		{"symlink", 200, tarball(t, entry{name: Entry, typ: tar.TypeSymlink}), "not a regular file"},
		{"not gzip", 200, []byte("<html>a captive portal</html>"), "not a gzip'd tarball"},
		{"truncated", 200, goodTarball(t)[:40], "read"},
		{"tarball too large", 200, padded(t, gzip.NoCompression, maxTarball), "the tarball is larger than 16777216 bytes"},
		{"unpacks too large", 200, padded(t, gzip.BestSpeed, maxUnpacked), "the unpacked tarball is larger than 67108864 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sources(t, serve(t, c.status, c.body))
			_, err := fakePin.Load(context.Background(), s)
			mustFail(t, err, c.want, "fetch quickjs-wasi 0.0.0-test from", "to run offline, set TEST_WASM")
			if _, err := os.Stat(s.Cache); err == nil {
				t.Error("a refused download was written")
			}
		})
	}
}

// TestCapped: a stream past its bound fails instead of ending quietly,
// and one exactly at the bound reads whole.
func TestCapped(t *testing.T) {
	c := &capped{r: strings.NewReader("12345"), limit: 5, what: "x"}
	if b, err := readAllCapped(c); err != nil || string(b) != "12345" {
		t.Errorf("at the bound: %q, %v", b, err)
	}
	c = &capped{r: strings.NewReader("123456"), limit: 5, what: "x"}
	if _, err := readAllCapped(c); err == nil || !strings.Contains(err.Error(), "x is larger than 5 bytes") {
		t.Errorf("past the bound: %v", err)
	}
}

func readAllCapped(c *capped) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(c)
	return buf.Bytes(), err
}

func TestTarballURL(t *testing.T) {
	for _, reg := range []string{"https://registry.npmjs.org/", "https://registry.npmjs.org"} {
		if got := TarballURL(reg, "3.7.0"); got != "https://registry.npmjs.org/quickjs-wasi/-/quickjs-wasi-3.7.0.tgz" {
			t.Errorf("%s: %s", reg, got)
		}
	}
	t.Setenv(RegistryEnv, "http://mirror.example/npm/")
	if got := Registry(); got != "http://mirror.example/npm/" {
		t.Errorf("Registry() = %s", got)
	}
}
