package provider

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeafPackage keeps the package a leaf an embedding program can take
// without the engine: the standard library only.
func TestLeafPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if deps := strings.Fields(string(out)); len(deps) != 1 || deps[0] != "github.com/seed11a79d2d/codemode/provider" {
		t.Fatalf("imports beyond the standard library: %v", deps)
	}
}
