package host

import (
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestStageDirection holds the stages under host/internal to the direction
// docs/architecture.md draws: a stage imports no other stage but bridge,
// and bridge imports none (a stage importing host would not compile).
func TestStageDirection(t *testing.T) {
	const base = "github.com/seed11a79d2d/codemode/host/internal/"
	//lint:ignore SA1019 under go test it still names the toolchain that built this test, whose packages are the ones to check.
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := osexec.Command(gobin, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./internal/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	stages := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		stage, _, _ := strings.Cut(strings.TrimPrefix(f[0], base), "/")
		stages++
		for _, imp := range f[1:] {
			other, ok := strings.CutPrefix(imp, base)
			if other, _, _ = strings.Cut(other, "/"); !ok || other == stage {
				continue
			}
			if stage == "bridge" || other != "bridge" {
				t.Errorf("stage %s imports stage %s: only bridge is below the others", stage, other)
			}
		}
	}
	if stages < 4 {
		t.Fatalf("go list found %d stages:\n%s", stages, out)
	}
}
