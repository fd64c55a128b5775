package quickjswasi

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
)

// TestModuleABI fails when the pinned module changes shape: the export table
// must bind and the imports must be exactly the twelve we provide.
func TestModuleABI(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	m, err := r.CompileModule(ctx, quickjsWasm)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"env.host_call": true, "env.host_interrupt": true, "env.host_promise_rejection": true,
		"env.host_module_normalize": true, "env.host_module_load": true, "env.host_get_timezone_offset": true,
		"wasi_snapshot_preview1.clock_time_get": true, "wasi_snapshot_preview1.fd_write": true,
		"wasi_snapshot_preview1.fd_close": true, "wasi_snapshot_preview1.fd_fdstat_get": true,
		"wasi_snapshot_preview1.fd_seek": true, "wasi_snapshot_preview1.random_get": true,
	}
	imports := m.ImportedFunctions()
	if len(imports) != len(want) {
		t.Fatalf("module imports %d functions, we provide %d", len(imports), len(want))
	}
	for _, f := range imports {
		mod, name, _ := f.Import()
		if !want[mod+"."+name] {
			t.Errorf("unexpected import %s.%s", mod, name)
		}
	}
	if err := instantiateImports(ctx, r); err != nil {
		t.Fatal(err)
	}
	mod, err := r.InstantiateModule(ctx, m, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	var fn exports
	if err := fn.bind(mod); err != nil {
		t.Fatal(err)
	}
}
