package quickjswasi

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// mentionVersion finds "quickjs-wasi 1.2.3", "quickjs-wasi@1.2.3" and
	// "`quickjs-wasi` 1.2.3" in code, scripts and prose.
	mentionVersion = regexp.MustCompile("quickjs-wasi`?[@ ]v?([0-9]+\\.[0-9]+\\.[0-9]+)")
	hex64          = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	makeVar        = regexp.MustCompile(`(?m)^(QUICKJS_WASI_VERSION|QUICKJS_WASI_SHA256)\s*:?=\s*(\S+)`)
)

// TestPinAgrees holds the repository to pin.go: the Makefile's variables
// (which make bench-node checks the Node wrapper with), and every mention
// of a quickjs-wasi version, or of a sha256 on a line about quickjs, in any
// text file of the tree.
func TestPinAgrees(t *testing.T) {
	root := filepath.Join("..", "..")
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range makeVar.FindAllStringSubmatch(string(mk), -1) {
		vars[m[1]] = m[2]
	}
	if vars["QUICKJS_WASI_VERSION"] != QuickJSWasiVersion || vars["QUICKJS_WASI_SHA256"] != QuickJSWasiSHA256 {
		t.Errorf("Makefile pins %q, pin.go %s %s", vars, QuickJSWasiVersion, QuickJSWasiSHA256)
	}
	mentions := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".cache", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		// Tests are skipped: they pin made-up versions on purpose.
		if !d.Type().IsRegular() || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) > 4<<20 || bytes.IndexByte(b, 0) >= 0 {
			return err // too large or binary: not documentation
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range mentionVersion.FindAllStringSubmatch(line, -1) {
				mentions++
				if m[1] != QuickJSWasiVersion {
					t.Errorf("%s:%d: %q, but pin.go pins %s", rel, i+1, m[0], QuickJSWasiVersion)
				}
			}
			if !strings.Contains(strings.ToLower(line), "quickjs") {
				continue
			}
			for _, h := range hex64.FindAllString(line, -1) {
				if h != QuickJSWasiSHA256 {
					t.Errorf("%s:%d: sha256 %s, but pin.go pins %s", rel, i+1, h, QuickJSWasiSHA256)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if mentions == 0 {
		t.Error("no quickjs-wasi version mentioned anywhere: is the pattern still right?")
	}
}
