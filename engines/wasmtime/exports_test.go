//go:build wasmtime

package wasmtime

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// TestModuleABI fails when the pinned module changes shape: the imports must
// be exactly the ones the driver provides, the export table must match (see
// checkExports) and an instance must bind.
func TestModuleABI(t *testing.T) {
	wasm, err := quickjswasi.LoadModule(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newRuntime(driver.Config{}.WithDefaults(), wasm, cacheDir(""))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if n := len(c.module.Imports()); n != len(driver.Imports) {
		t.Fatalf("module imports %d functions, we provide %d", n, len(driver.Imports))
	}
	in, err := c.Instantiate(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	in.Close(context.Background())
}
