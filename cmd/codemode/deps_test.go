package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTestingNotLinked keeps package testing (its flags, its init) out of
// the binary, with and without the wasmtime engine: codemode conformance
// runs the table through engines/conformance, whose test runner lives in
// conformancetest for that reason.
func TestTestingNotLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, tags := range []string{"", "wasmtime"} {
		out, err := exec.Command("go", "list", "-tags", tags, "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".").Output()
		if err != nil {
			t.Fatalf("go list -tags %q: %v", tags, err)
		}
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			for _, imp := range f[min(1, len(f)):] {
				if imp == "testing" {
					t.Errorf("tags %q: %s imports testing, which links it into codemode", tags, f[0])
				}
			}
		}
	}
}
