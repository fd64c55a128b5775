package quickjswasi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strconv"

	"github.com/seed11a79d2d/codemode/engines/internal/cowmem"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/internal/preempt"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi/internal/wasmfile"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// compiled is the wazero runtime with quickjs.wasm compiled: the
// [driver.Runtime] of this package.
type compiled struct {
	rt  wazero.Runtime
	mod wazero.CompiledModule
}

// tickEvery is how many loop iterations and function entries the guest runs
// between two calls to env.host_interrupt (see package preempt). At 10,000 a
// stop-the-world collection waited at most 2 ms for a spinning builtin, and
// the calls into Go are a small part of the ticks' cost (bench/RESULTS.md),
// which is the countdown itself.
const tickEvery = 10000

// compile makes the runtime, its imports and the compiled module from the
// instrumented quickjs.wasm (see [instrument]), with the compilation cache in
// dir ("" for none).
func compile(ctx context.Context, cfg wazero.RuntimeConfig, dir string, wasm []byte) (*compiled, error) {
	if dir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, err
		}
		readOnce(cache)
		cfg = cfg.WithCompilationCache(cache)
	}
	c := &compiled{rt: wazero.NewRuntimeWithConfig(ctx, cfg)}
	err := instantiateImports(ctx, c.rt)
	if err == nil {
		c.mod, err = c.rt.CompileModule(ctx, wasm)
	}
	if err != nil {
		c.rt.Close(ctx)
		return nil, err
	}
	return c, nil
}

// instrument returns the verified quickjs.wasm (from module, which is asked
// only when the cache has no entry) with the preemption ticks
// (package preempt) put in. The rewrite takes a tenth of a warm start, so its
// result is kept in the cache directory dir ("" for none), keyed by the
// pinned module, the tick parameters and this binary (see
// [driver.CacheFile]); an entry that fails its checksum is rewritten.
func instrument(module func() ([]byte, error), dir string, logger *slog.Logger) ([]byte, error) {
	file := driver.CacheFile(dir, "quickjs-preempt", ".wasm", QuickJSWasiSHA256, "env.host_interrupt", strconv.Itoa(tickEvery))
	if file != "" {
		b, err := driver.ReadCache(file, 2*wasmfile.MaxSize)
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			logger.Warn("rewritten module cache entry unusable; rewriting the module", "file", file, "err", err)
		}
	}
	wasm, err := module()
	if err != nil {
		return nil, err
	}
	out, err := preempt.Instrument(wasm, "env", "host_interrupt", tickEvery)
	if err == nil && file != "" {
		if werr := driver.WriteCache(file, out); werr != nil {
			logger.Warn("rewritten module cache entry not written", "file", file, "err", werr)
		}
	}
	return out, err
}

func (c *compiled) Close(ctx context.Context) error { return c.rt.Close(ctx) }

// instance is one module instance: the [driver.Module] of this package.
type instance struct {
	mod api.Module
	mem api.Memory
	sp  api.MutableGlobal
	fn  [driver.NumExports]api.Function
	ctx context.Context     // carries the driver's instance to host functions
	res *cowmem.Reservation // linear memory, nil where none could be made
}

// Mappable implements [driver.Mappable]: a reservation never moves.
func (m *instance) Mappable() bool { return m.res != nil }

// sliceMemory is linear memory where no reservation could be made: Go
// memory, as wazero's own.
type sliceMemory struct{ b []byte }

func (s *sliceMemory) Reallocate(size uint64) []byte {
	if n := uint64(len(s.b)); size > n {
		s.b = append(s.b, make([]byte, size-n)...)
	}
	return s.b[:size]
}

func (s *sliceMemory) Free() { s.b = nil }

type instanceKey struct{}

// instanceOf finds the instance a host call belongs to: every call into a
// guest passes the instance's own context.
func instanceOf(ctx context.Context) *driver.Instance {
	return ctx.Value(instanceKey{}).(*driver.Instance)
}

func (c *compiled) Instantiate(ctx context.Context, in *driver.Instance) (driver.Module, error) {
	// Linear memory is a reservation of its own that never moves, so that
	// the driver can map the template over it copy-on-write (package cowmem).
	var res *cowmem.Reservation
	ctx = experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		r, err := cowmem.Reserve(max)
		if err != nil {
			return &sliceMemory{}
		}
		res = r
		return r
	}))
	mod, err := c.rt.InstantiateModule(ctx, c.mod, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	m := &instance{mod: mod, mem: mod.Memory(), res: res, ctx: context.WithValue(context.Background(), instanceKey{}, in)}
	if err := m.bind(); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return m, nil
}

// bind fills the export table and finds the stack pointer.
func (m *instance) bind() error {
	sp, ok := m.mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok {
		return errors.New("quickjs.wasm lacks a mutable __stack_pointer")
	}
	m.sp = sp
	for i, x := range driver.Exports {
		if m.fn[i] = m.mod.ExportedFunction(x.Name); m.fn[i] == nil {
			return fmt.Errorf("quickjs.wasm lacks export %s", x.Name)
		}
	}
	return nil
}

func (m *instance) Call(fn driver.Export, stack []uint64) error {
	return m.fn[fn].CallWithStack(m.ctx, stack)
}

func (m *instance) Memory() []byte {
	b, _ := m.mem.Read(0, m.mem.Size())
	return b
}

func (m *instance) Grow(pages uint32) error {
	if _, ok := m.mem.Grow(pages); !ok {
		return errors.New("memory limit reached")
	}
	return nil
}

func (m *instance) StackPointer() uint32 { return uint32(m.sp.Get()) }

func (m *instance) SetStackPointer(sp uint32) error {
	m.sp.Set(uint64(sp))
	return nil
}

func (m *instance) Close(ctx context.Context) { m.mod.Close(ctx) }

// instantiateImports provides the module's imports (see [driver.Imports]).
func instantiateImports(ctx context.Context, r wazero.Runtime) error {
	hosts := map[string]wazero.HostModuleBuilder{}
	for _, name := range []string{"env", "wasi_snapshot_preview1"} {
		hosts[name] = r.NewHostModuleBuilder(name)
	}
	for i, imp := range driver.Imports {
		b, ok := hosts[imp.Module]
		if !ok {
			return fmt.Errorf("import %s.%s: unknown module", imp.Module, imp.Name)
		}
		results := valueTypes(imp.Sig.Results())
		hasResult := len(results) > 0
		b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
			r := instanceOf(ctx).CallImport(i, stack)
			if hasResult {
				stack[0] = uint64(r)
			}
		}), valueTypes(imp.Sig.Params()), results).Export(imp.Name)
	}
	for _, name := range []string{"env", "wasi_snapshot_preview1"} {
		if _, err := hosts[name].Instantiate(ctx); err != nil {
			return err
		}
	}
	return nil
}

// valueTypes maps signature kinds (see [driver.Signature]) to wazero's.
func valueTypes(kinds string) []api.ValueType {
	var ts []api.ValueType
	for _, k := range []byte(kinds) {
		switch k {
		case 'i':
			ts = append(ts, api.ValueTypeI32)
		case 'I':
			ts = append(ts, api.ValueTypeI64)
		case 'd':
			ts = append(ts, api.ValueTypeF64)
		}
	}
	return ts
}
