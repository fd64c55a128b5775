package provider

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeafPackage keeps the package a leaf an embedding program can take
// without the engine: the standard library, and internal/suggest, which is
// itself the standard library only.
func TestLeafPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	want := "github.com/seed11a79d2d/codemode/internal/suggest github.com/seed11a79d2d/codemode/provider"
	if deps := strings.Join(strings.Fields(string(out)), " "); deps != want {
		t.Fatalf("imports beyond the standard library: %v", deps)
	}
}
