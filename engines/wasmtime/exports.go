//go:build wasmtime

package wasmtime

import (
	"fmt"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// checkExports compares the signature of every export in [driver.Exports]
// with the module's, once per engine: calls into them are unchecked (see
// call.go).
func checkExports(m *wt.Module) error {
	types := map[string]*wt.FuncType{}
	for _, x := range m.Exports() {
		if ft := x.Type().FuncType(); ft != nil {
			types[x.Name()] = ft
		}
	}
	for _, x := range driver.Exports {
		ft, ok := types[x.Name]
		if !ok {
			return fmt.Errorf("quickjs.wasm lacks export %s", x.Name)
		}
		if got := signature(ft); got != x.Sig {
			return fmt.Errorf("quickjs.wasm export %s has signature %s, want %s", x.Name, got, x.Sig)
		}
	}
	return nil
}

// bind fills the export table from a module instance.
func (in *instance) bind(inst *wt.Instance) error {
	for i, x := range driver.Exports {
		fn := inst.GetFunc(in.store, x.Name)
		if fn == nil {
			return fmt.Errorf("quickjs.wasm lacks export %s", x.Name)
		}
		raw, err := rawFunc(fn)
		if err != nil {
			return fmt.Errorf("export %s: %w", x.Name, err)
		}
		in.fn[i] = raw
	}
	return nil
}

// signature renders a function type in the notation of [driver.Signature];
// other kinds, or more values than a call buffer holds, render as "?".
func signature(ty *wt.FuncType) driver.Signature {
	kinds := func(vs []*wt.ValType) string {
		if len(vs) > len(rawArgs{}) {
			return "?"
		}
		s := ""
		for _, v := range vs {
			switch v.Kind() {
			case wt.KindI32:
				s += "i"
			case wt.KindI64:
				s += "I"
			case wt.KindF64:
				s += "d"
			default:
				s += "?"
			}
		}
		return s
	}
	return driver.Signature(kinds(ty.Params()) + ">" + kinds(ty.Results()))
}
