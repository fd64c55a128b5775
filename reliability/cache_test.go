package reliability

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var helper struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// cacheHelper builds testdata/cachehelper without the race detector, so each
// scenario compiles quickjs.wasm in under a second even under -race.
func cacheHelper(t *testing.T) string {
	t.Helper()
	helper.once.Do(func() {
		dir, err := os.MkdirTemp("", "cachehelper")
		if err != nil {
			helper.err = err
			return
		}
		helper.path = filepath.Join(dir, "cachehelper")
		helper.out, helper.err = exec.Command("go", "build", "-o", helper.path, "./testdata/cachehelper").CombinedOutput()
	})
	if helper.err != nil {
		t.Fatalf("build cachehelper: %v\n%s", helper.err, helper.out)
	}
	return helper.path
}

type helperResult struct {
	Started bool     `json:"started"`
	Error   string   `json:"error"`
	Value   string   `json:"value"`
	Logs    []string `json:"logs"`
}

func runHelper(t *testing.T, args ...string) helperResult {
	t.Helper()
	out, err := exec.Command(cacheHelper(t), args...).Output()
	if err != nil {
		t.Fatalf("cachehelper %v: %v", args, err)
	}
	var r helperResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("cachehelper output %q: %v", out, err)
	}
	return r
}

// warmCache returns a cache directory holding quickjs.wasm's compiled code
// and the version directory wazero keeps it in.
func warmCache(t *testing.T) (dir, version string) {
	dir = t.TempDir()
	if r := runHelper(t, "-dir", dir); !r.Started || r.Value != "42" {
		t.Fatalf("cold start: %+v", r)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache dir: %v %v", entries, err)
	}
	return dir, entries[0].Name()
}

// TestCompilationCacheFaults: whatever happens to the compilation cache, the
// engine must start by compiling in memory, say so in a warning, and run
// cells.
func TestCompilationCacheFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a helper binary")
	}
	warm, version := warmCache(t)
	clone := func(t *testing.T, mutate func(path string)) string {
		dir := t.TempDir()
		files, _ := filepath.Glob(filepath.Join(warm, version, "*"))
		os.MkdirAll(filepath.Join(dir, version), 0o755)
		for _, f := range files {
			b, _ := os.ReadFile(f)
			p := filepath.Join(dir, version, filepath.Base(f))
			os.WriteFile(p, b, 0o644)
			mutate(p)
		}
		return dir
	}
	cases := []struct {
		name string
		dir  func(t *testing.T) []string
		bug  string
	}{
		{"warm cache", func(t *testing.T) []string { return []string{"-dir", warm} }, ""},
		{"cache path is a file", func(t *testing.T) []string {
			f := filepath.Join(t.TempDir(), "file")
			os.WriteFile(f, []byte("x"), 0o644)
			return []string{"-dir", f}
		}, ""},
		{"cache directory unwritable", func(t *testing.T) []string {
			dir := t.TempDir()
			// /proc/self/fdinfo is a directory no one, root included, can create files in.
			if err := os.Symlink("/proc/self/fdinfo", filepath.Join(dir, version)); err != nil {
				t.Skip(err)
			}
			return []string{"-dir", dir}
		}, ""},
		{"cache entry corrupted", func(t *testing.T) []string {
			return []string{"-dir", clone(t, func(p string) { os.WriteFile(p, []byte("garbage"), 0o644) })}
		}, ""},
		{"cache entry truncated", func(t *testing.T) []string {
			return []string{"-dir", clone(t, func(p string) { os.Truncate(p, 100) })}
		}, ""},
		{"disk full", func(t *testing.T) []string {
			return []string{"-dir", t.TempDir(), "-fsize", "65536"}
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.bug != "" {
				skipKnownBug(t, c.bug)
			}
			r := runHelper(t, c.dir(t)...)
			if !r.Started || r.Value != "42" {
				t.Fatalf("engine did not fall back to compiling in memory: %+v", r)
			}
			if c.name != "warm cache" && !strings.Contains(strings.Join(r.Logs, "\n"), "cache") {
				t.Errorf("no warning about the cache: %q", r.Logs)
			}
		})
	}
}
