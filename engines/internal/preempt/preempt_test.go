package preempt

import (
	"context"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// spinModule is, in the text format:
//
//	(module
//	  (import "env" "tick" (func (result i32)))
//	  (func (export "spin") (param i32) (result i32)
//	    loop
//	      local.get 0 i32.const 1 i32.sub local.tee 0
//	      br_if 0
//	    end
//	    i32.const 7))
//
// It has no global section, so Instrument must add one.
var spinModule = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x0a, 0x02, 0x60, 0x00, 0x01, 0x7f, 0x60, 0x01, 0x7f, 0x01, 0x7f,
	0x02, 0x0c, 0x01, 0x03, 'e', 'n', 'v', 0x04, 't', 'i', 'c', 'k', 0x00, 0x00,
	0x03, 0x02, 0x01, 0x01,
	0x07, 0x08, 0x01, 0x04, 's', 'p', 'i', 'n', 0x00, 0x01,
	0x0a, 0x12, 0x01, 0x10, 0x00, 0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x41, 0x07, 0x0b,
}

// run instantiates module with env.tick counting its calls and calls
// spin(n).
func run(t *testing.T, module []byte, n uint64) (result uint64, ticks int) {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	_, err := r.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, _ api.Module, stack []uint64) {
			ticks++
			stack[0] = 0
		}), nil, []api.ValueType{api.ValueTypeI32}).Export("tick").Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Instantiate(ctx, module)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.ExportedFunction("spin").Call(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	return res[0], ticks
}

func TestInstrumentTicksEveryN(t *testing.T) {
	if res, ticks := run(t, spinModule, 100); res != 7 || ticks != 0 {
		t.Fatalf("original: %d, %d ticks", res, ticks)
	}
	out, err := Instrument(spinModule, "env", "tick", 10)
	if err != nil {
		t.Fatal(err)
	}
	// One function entry and 100 loop headers count down 101 times.
	if res, ticks := run(t, out, 100); res != 7 || ticks != 10 {
		t.Fatalf("instrumented: %d, %d ticks", res, ticks)
	}
	if res, ticks := run(t, out, 9); res != 7 || ticks != 1 {
		t.Fatalf("instrumented, 10 counts: %d, %d ticks", res, ticks)
	}
}

func TestInstrumentRefuses(t *testing.T) {
	wrongType := append([]byte(nil), spinModule...)
	wrongType[33] = 0x01 // the import takes an i32
	for _, tc := range []struct {
		name, module, want string
		every              uint32
	}{
		{"not wasm", "hello, world", "not a version 1 wasm module", 1},
		{"no such import", string(spinModule), "does not import env.nope", 1},
		{"import with parameters", string(wrongType), "must take no arguments", 1},
		{"truncated", string(spinModule[:len(spinModule)-3]), "unexpected end", 1},
		{"zero interval", string(spinModule), "every must be positive", 0},
	} {
		name := "tick"
		if tc.name == "no such import" {
			name = "nope"
		}
		if _, err := Instrument([]byte(tc.module), "env", name, tc.every); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzInstrument: any bytes are refused with an error or instrumented; what
// wazero accepts before instrumenting, it accepts after.
func FuzzInstrument(f *testing.F) {
	f.Add(spinModule)
	f.Add(spinModule[:20])
	f.Fuzz(func(t *testing.T, module []byte) {
		out, err := Instrument(module, "env", "tick", 3)
		if err != nil {
			return
		}
		ctx := context.Background()
		r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
		defer r.Close(ctx)
		if _, err := r.CompileModule(ctx, module); err != nil {
			return
		}
		if _, err := r.CompileModule(ctx, out); err != nil {
			t.Fatalf("valid module broken by instrumenting: %v", err)
		}
	})
}

// TestInstrumentKeepsSectionOrder: without a global section, the added one
// goes before the data count section, which precedes the code.
func TestInstrumentKeepsSectionOrder(t *testing.T) {
	code := 48 // the code section's offset in spinModule
	m := append(append(append([]byte(nil), spinModule[:code]...), 0x0c, 0x01, 0x00), spinModule[code:]...)
	if res, ticks := run(t, m, 1); res != 7 || ticks != 0 {
		t.Fatalf("original with a data count: %d, %d ticks", res, ticks)
	}
	out, err := Instrument(m, "env", "tick", 1)
	if err != nil {
		t.Fatal(err)
	}
	if res, ticks := run(t, out, 1); res != 7 || ticks != 2 {
		t.Fatalf("instrumented: %d, %d ticks", res, ticks)
	}
}

// TestInstrumentRefusesHugeCounts: a vector length past its section is an
// error at once, not billions of empty reads.
func TestInstrumentRefusesHugeCounts(t *testing.T) {
	m := append([]byte(nil), spinModule[:48]...)
	m = append(m, 0x0a, 0x0a, 0x01, 0x08, 0x00, 0x0e, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0b)
	if _, err := Instrument(m, "env", "tick", 1); err == nil || !strings.Contains(err.Error(), "vector longer than its section") {
		t.Fatalf("got %v", err)
	}
}
