package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// TestFetchNotice: with an empty user cache the first start fetches the
// module (from a local registry here) and says so in one line; the next
// start is silent.
func TestFetchNotice(t *testing.T) {
	wasm, err := quickjswasi.LoadModule(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := os.UserCacheDir()
	t.Setenv(quickjswasi.CacheDirEnv, filepath.Join(base, "codemode", "wazero")) // stays warm
	home := t.TempDir()
	for _, k := range []string{"XDG_CACHE_HOME", "HOME", "LocalAppData"} {
		t.Setenv(k, home)
	}
	t.Setenv(quickjswasi.ModuleEnv, "")
	if moved, _ := os.UserCacheDir(); !strings.HasPrefix(moved, home) {
		t.Skip("cannot move the user cache directory here")
	}
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		tw.WriteHeader(&tar.Header{Name: "package/quickjs.wasm", Mode: 0o644, Size: int64(len(wasm)), Typeflag: tar.TypeReg})
		tw.Write(wasm)
		tw.Close()
		zw.Close()
		w.Write(buf.Bytes())
	}))
	defer reg.Close()
	t.Setenv("npm_config_registry", reg.URL)

	_, stderr, code := cli(t, "", "version")
	path := filepath.Join(home, "codemode", "quickjs-wasi-"+quickjswasi.QuickJSWasiVersion, "quickjs.wasm")
	want := "codemode: fetched quickjs-wasi " + quickjswasi.QuickJSWasiVersion + " (sha256 " + quickjswasi.QuickJSWasiSHA256[:12] + "…) into " + path + "\n"
	if code != 0 || strings.Count(stderr, "fetched") != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q, want the line %q", code, stderr, want)
	}
	if _, stderr, _ := cli(t, "", "version"); strings.Contains(stderr, "fetched") {
		t.Errorf("the second start fetched again: %q", stderr)
	}
}

// TestModuleRefused: a wrong $CODEMODE_QUICKJS_WASM stops the command
// with the loader's advice, and nothing runs.
func TestModuleRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "quickjs.wasm")
	os.WriteFile(file, []byte("\x00asm\x01\x00\x00\x00"), 0o644)
	t.Setenv(quickjswasi.ModuleEnv, file)
	stdout, stderr, code := cli(t, "", "exec", "-e", "return 1")
	if code == 0 || stdout != "" || !strings.Contains(stderr, "$CODEMODE_QUICKJS_WASM ("+file+")") ||
		!strings.Contains(stderr, "(sha256 "+quickjswasi.QuickJSWasiSHA256+")") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
