package reliability

import (
	"encoding/json"
	"fmt"
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
	r, err := startHelper(cacheHelper(t), args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// startHelper runs the built helper; it may be called off the test goroutine.
func startHelper(path string, args ...string) (helperResult, error) {
	var r helperResult
	out, err := exec.Command(path, args...).Output()
	if err != nil {
		return r, fmt.Errorf("cachehelper %v: %v", args, err)
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("cachehelper output %q: %v", out, err)
	}
	return r, nil
}

// warmCache returns a cache directory holding quickjs.wasm's compiled code
// and the version directory wazero keeps it in, next to the rewritten module
// and the template image.
func warmCache(t *testing.T) (dir, version string) {
	dir = t.TempDir()
	if r := runHelper(t, "-dir", dir); !r.Started || r.Value != "42" {
		t.Fatalf("cold start: %+v", r)
	}
	entries, err := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if e.IsDir() && strings.HasPrefix(e.Name(), "wazero-") {
			version = e.Name()
		}
	}
	if err != nil || len(entries) != 3 || version == "" {
		t.Fatalf("cache dir: %q %v", names, err)
	}
	return dir, version
}

// TestCompilationCacheFaults: whatever happens to the compilation cache, the
// engine must start by compiling in memory, say so in a warning, and run
// cells.
func TestCompilationCacheFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a helper binary")
	}
	warm, version := warmCache(t)
	// clone copies the warm cache and mutates the entries matching pattern
	// (relative to the cache directory).
	clone := func(t *testing.T, pattern string, mutate func(path string)) string {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, version), 0o755)
		for _, sub := range []string{"*", filepath.Join(version, "*")} {
			files, _ := filepath.Glob(filepath.Join(warm, sub))
			for _, f := range files {
				rel, _ := filepath.Rel(warm, f)
				if rel == version {
					continue
				}
				b, _ := os.ReadFile(f)
				p := filepath.Join(dir, rel)
				os.WriteFile(p, b, 0o644)
				if ok, _ := filepath.Match(pattern, rel); ok {
					mutate(p)
				}
			}
		}
		return dir
	}
	garbage := func(p string) { os.WriteFile(p, []byte("garbage"), 0o644) }
	flip := func(p string) {
		b, _ := os.ReadFile(p)
		b[len(b)/2] ^= 0x10
		os.WriteFile(p, b, 0o644)
	}
	truncate := func(p string) { os.Truncate(p, 100) }
	compiled, rewritten, template := filepath.Join(version, "*"), "quickjs-preempt-*", "template-*"
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
			return []string{"-dir", clone(t, compiled, garbage)}
		}, ""},
		{"cache entry truncated", func(t *testing.T) []string {
			return []string{"-dir", clone(t, compiled, truncate)}
		}, ""},
		// The start-up caches next to the compiled code (package driver's
		// CacheFile): a damaged entry is ignored with a warning and rebuilt.
		{"rewritten module corrupted", func(t *testing.T) []string {
			return []string{"-dir", clone(t, rewritten, garbage)}
		}, ""},
		{"rewritten module bit flipped", func(t *testing.T) []string {
			return []string{"-dir", clone(t, rewritten, flip)}
		}, ""},
		{"rewritten module truncated", func(t *testing.T) []string {
			return []string{"-dir", clone(t, rewritten, truncate)}
		}, ""},
		{"template corrupted", func(t *testing.T) []string {
			return []string{"-dir", clone(t, template, garbage)}
		}, ""},
		{"template bit flipped", func(t *testing.T) []string {
			return []string{"-dir", clone(t, template, flip)}
		}, ""},
		{"template truncated", func(t *testing.T) []string {
			return []string{"-dir", clone(t, template, truncate)}
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
			args := c.dir(t)
			r := runHelper(t, args...)
			if !r.Started || r.Value != "42" {
				t.Fatalf("engine did not fall back to compiling in memory: %+v", r)
			}
			if c.name != "warm cache" && !strings.Contains(strings.Join(r.Logs, "\n"), "cache") {
				t.Errorf("no warning about the cache: %q", r.Logs)
			}
			if strings.HasPrefix(c.name, "rewritten") || strings.HasPrefix(c.name, "template") {
				// The damaged entry was replaced: the next start is silent.
				if r := runHelper(t, args...); !r.Started || r.Value != "42" || len(r.Logs) != 0 {
					t.Errorf("start after the rebuild: %+v", r)
				}
			}
		})
	}
}

// TestStartCachesConcurrent: processes starting together on an empty cache
// all write the same entries (each through a temporary file and a rename),
// and every one of them starts; the entries they leave are whole.
func TestStartCachesConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a helper binary")
	}
	dir := t.TempDir()
	path := cacheHelper(t)
	results := make([]helperResult, 4)
	errs := make([]error, len(results))
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = startHelper(path, "-dir", dir)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil || !r.Started || r.Value != "42" {
			t.Errorf("process %d: %+v %v", i, r, errs[i])
		}
	}
	if r := runHelper(t, "-dir", dir); !r.Started || r.Value != "42" || len(r.Logs) != 0 {
		t.Fatalf("start on what the concurrent ones left: %+v", r)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %q", leftovers)
	}
}
