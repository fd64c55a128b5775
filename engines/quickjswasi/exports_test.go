package quickjswasi

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// TestModuleABI fails when the pinned module changes shape: the imports must
// be exactly the ones the driver provides, and the export table must bind
// with the signatures it is called with.
func TestModuleABI(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasm, err := LoadModule(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]driver.Signature{}
	for _, imp := range driver.Imports {
		want[imp.Module+"."+imp.Name] = imp.Sig
	}
	imports := m.ImportedFunctions()
	if len(imports) != len(want) {
		t.Fatalf("module imports %d functions, we provide %d", len(imports), len(want))
	}
	for _, f := range imports {
		mod, name, _ := f.Import()
		if sig, ok := want[mod+"."+name]; !ok || signature(f) != sig {
			t.Errorf("import %s.%s%s: we provide %q", mod, name, signature(f), sig)
		}
	}
	exports := m.ExportedFunctions()
	for _, x := range driver.Exports {
		if f, ok := exports[x.Name]; !ok || signature(f) != x.Sig {
			t.Errorf("export %s: want %s", x.Name, x.Sig)
		}
	}
	if err := instantiateImports(ctx, r); err != nil {
		t.Fatal(err)
	}
	mod, err := r.InstantiateModule(ctx, m, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	if err := (&instance{mod: mod}).bind(); err != nil {
		t.Fatal(err)
	}
}

// signature renders a function type in the notation of [driver.Signature].
func signature(f api.FunctionDefinition) driver.Signature {
	kinds := func(ts []api.ValueType) string {
		s := ""
		for _, t := range ts {
			switch t {
			case api.ValueTypeI32:
				s += "i"
			case api.ValueTypeI64:
				s += "I"
			case api.ValueTypeF64:
				s += "d"
			default:
				s += "?"
			}
		}
		return s
	}
	return driver.Signature(kinds(f.ParamTypes()) + ">" + kinds(f.ResultTypes()))
}
