package quickjswasi

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi/internal/wasmfile"
)

// realModule is the pinned module from $CODEMODE_QUICKJS_WASM or the user
// cache (make setup fills it), loaded before a test moves either.
func realModule(t *testing.T) []byte {
	t.Helper()
	b, err := LoadModule(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// startWith starts an engine on the given options and runs one cell.
func startWith(t *testing.T, o *Options) error {
	t.Helper()
	ctx := context.Background()
	e, err := New(ctx, o)
	if err != nil {
		return err
	}
	defer e.Close(ctx)
	c, err := e.NewCell(ctx, abi.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	return nil
}

func TestModuleOption(t *testing.T) {
	wasm := realModule(t)
	t.Setenv(ModuleEnv, filepath.Join(t.TempDir(), "absent")) // the option wins over it
	if err := startWith(t, &Options{Module: wasm}); err != nil {
		t.Fatal(err)
	}
	err := startWith(t, &Options{Module: wasm[:len(wasm)-1]})
	var f *abi.Failure
	if !errors.As(err, &f) || f.Kind != abi.FailureUnavailable ||
		!strings.Contains(f.Message, "the Module option") || !strings.Contains(f.Message, "want "+QuickJSWasiSHA256) {
		t.Fatalf("a wrong Module started: %v", err)
	}
}

// TestModuleEnv: $CODEMODE_QUICKJS_WASM is used when right, and a wrong one
// stops the engine with what to do, never running the file.
func TestModuleEnv(t *testing.T) {
	wasm := realModule(t)
	file := filepath.Join(t.TempDir(), "quickjs.wasm")
	os.WriteFile(file, wasm, 0o644)
	t.Setenv(ModuleEnv, file)
	if err := startWith(t, nil); err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(wasm)
	corrupt[len(corrupt)/2] ^= 1
	os.WriteFile(file, corrupt, 0o644)
	err := startWith(t, nil)
	for _, want := range []string{"start quickjs-wasi engine: $CODEMODE_QUICKJS_WASM (" + file + ")", "want " + QuickJSWasiSHA256,
		"set CODEMODE_QUICKJS_WASM to a copy of quickjs-wasi " + QuickJSWasiVersion + "'s package/quickjs.wasm"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("corrupted $%s: error lacks %q: %v", ModuleEnv, want, err)
		}
	}
}

// TestModuleFetched: with an empty user cache and no variable, the engine
// downloads the npm tarball (here from a local registry serving the real
// module), verifies it, keeps it in the cache and says so once.
func TestModuleFetched(t *testing.T) {
	wasm := realModule(t)
	compiled := cacheDir("") // the warm compilation cache, before HOME moves
	if compiled == "" {
		compiled = "off"
	}
	home := t.TempDir()
	for _, k := range []string{"XDG_CACHE_HOME", "HOME", "LocalAppData"} {
		t.Setenv(k, home)
	}
	t.Setenv(ModuleEnv, "")
	path, err := pin.CachePath()
	if err != nil || !strings.HasPrefix(path, home) {
		t.Skipf("cannot move the user cache directory here: %s, %v", path, err)
	}
	var hits atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/quickjs-wasi/-/quickjs-wasi-"+QuickJSWasiVersion+".tgz" {
			http.NotFound(w, r)
			return
		}
		w.Write(npmTarball(t, wasm))
	}))
	defer reg.Close()
	t.Setenv(wasmfile.RegistryEnv, reg.URL)
	var notices []string
	o := &Options{CacheDir: compiled, Fetched: func(p string) { notices = append(notices, p) }}
	for range 2 {
		if err := startWith(t, o); err != nil {
			t.Fatal(err)
		}
	}
	if hits.Load() != 1 || len(notices) != 1 || notices[0] != path {
		t.Errorf("%d downloads, notices %q, want one for %s", hits.Load(), notices, path)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, wasm) {
		t.Error("the cache does not hold the module")
	}
}

// npmTarball lays the module out as npm pack does.
func npmTarball(t *testing.T, wasm []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range map[string][]byte{"package/package.json": []byte(`{"name":"quickjs-wasi"}`), "package/quickjs.wasm": wasm} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}
