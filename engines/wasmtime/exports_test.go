//go:build wasmtime

package wasmtime

import "testing"

// TestModuleABI fails when the pinned module changes shape: every import must
// be one we provide, and the export table must bind.
func TestModuleABI(t *testing.T) {
	e := engine(t)
	imports := e.module.Imports()
	if len(imports) != len(hostFuncs) {
		t.Fatalf("module imports %d functions, we provide %d", len(imports), len(hostFuncs))
	}
	in, err := e.instantiate()
	if err != nil {
		t.Fatal(err)
	}
	in.close()
}
