//go:build wasmtime

package wasmtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/cgo"
	"sync"
	"time"
	"unsafe"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

const (
	// maxWasmStack is wasmtime's native stack for wasm frames. Its default
	// (512 KiB) overflows before QuickJS's own 768 KiB limit on the C stack.
	maxWasmStack = 4 << 20
	epochTick    = 5 * time.Millisecond
	noDeadline   = 1 << 40 // epoch ticks: centuries
)

// compiled is the wasmtime engine with quickjs.wasm compiled and the C types
// of its imports: the [driver.Runtime] of this package. It advances the epoch
// that guest call deadlines are counted in.
type compiled struct {
	engine *wt.Engine
	module *wt.Module
	memCap int64
	// hostTypes are the C function types of [driver.Imports], in order;
	// hostIndex finds an import by "module.name".
	hostTypes []unsafe.Pointer
	hostIndex map[string]int
	// hasResult says which imports return a value.
	hasResult []bool

	stop chan struct{}
	wg   sync.WaitGroup
}

// newRuntime compiles wasm, the verified module of quickjswasi.LoadModule.
func newRuntime(cfg driver.Config, wasm []byte, dir string) (*compiled, error) {
	wcfg := wt.NewConfig()
	wcfg.SetEpochInterruption(true)
	wcfg.SetMaxWasmStack(maxWasmStack)
	c := &compiled{engine: wt.NewEngineWithConfig(wcfg), memCap: int64(cfg.MemoryCap()),
		hostIndex: map[string]int{}, stop: make(chan struct{})}
	fail := func(err error) (*compiled, error) {
		c.free()
		return nil, err
	}
	var err error
	if c.module, err = c.compile(cfg, wasm, dir); err != nil {
		return fail(err)
	}
	if err := checkExports(c.module); err != nil {
		return fail(err)
	}
	if len(driver.Imports) > 1<<hostIndexBits {
		return fail(errors.New("too many host functions for their env encoding"))
	}
	for i, imp := range driver.Imports {
		c.hostIndex[imp.Module+"."+imp.Name] = i
		c.hostTypes = append(c.hostTypes, newFuncType(valKinds(imp.Sig.Params()), valKinds(imp.Sig.Results())))
		c.hasResult = append(c.hasResult, imp.Sig.Results() != "")
	}
	c.wg.Add(1)
	go c.tick()
	return c, nil
}

// compile compiles quickjs.wasm with Cranelift, or loads the native code a
// previous process cached for this module and this wasmtime.
func (c *compiled) compile(cfg driver.Config, wasm []byte, dir string) (*wt.Module, error) {
	if dir == "" {
		return wt.NewModule(c.engine, wasm)
	}
	sum := sha256.Sum256(wasm)
	file := filepath.Join(dir, "quickjs-"+hex.EncodeToString(sum[:8])+"-"+WasmtimeVersion+"-"+runtime.GOARCH+".cwasm")
	if _, err := os.Stat(file); err == nil {
		if m, err := wt.NewModuleDeserializeFile(c.engine, file); err == nil {
			return m, nil
		} else {
			cfg.Logger.Warn("wasmtime compilation cache entry unusable; recompiling", "file", file, "err", err)
		}
	}
	m, err := wt.NewModule(c.engine, wasm)
	if err != nil {
		return nil, err
	}
	if err := writeCache(file, m); err != nil {
		cfg.Logger.Warn("wasmtime compilation cache not written", "dir", dir, "err", err)
	}
	return m, nil
}

func writeCache(file string, m *wt.Module) error {
	b, err := m.Serialize()
	if err != nil {
		return err
	}
	return driver.WriteAtomic(file, b)
}

// tick advances the engine's epoch; guest calls are stopped at a deadline
// counted in ticks.
func (c *compiled) tick() {
	defer c.wg.Done()
	t := time.NewTicker(epochTick)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.engine.IncrementEpoch()
		}
	}
}

// Close stops the ticker and frees the module, the types and the engine.
func (c *compiled) Close(context.Context) error {
	close(c.stop)
	c.wg.Wait()
	c.free()
	return nil
}

func (c *compiled) free() {
	if c.module != nil {
		c.module.Close()
	}
	for _, t := range c.hostTypes {
		deleteFuncType(t)
	}
	c.engine.Close()
}

// valKinds maps signature kinds (see [driver.Signature]) to wasmtime's.
func valKinds(kinds string) []wt.ValKind {
	var ks []wt.ValKind
	for _, k := range []byte(kinds) {
		switch k {
		case 'i':
			ks = append(ks, wt.KindI32)
		case 'I':
			ks = append(ks, wt.KindI64)
		case 'd':
			ks = append(ks, wt.KindF64)
		}
	}
	return ks
}

// instance is one quickjs.wasm instance in a store of its own, so its memory
// is freed with it and the store limiter bounds it alone: the [driver.Module]
// of this package.
type instance struct {
	drv   *driver.Instance
	store *wt.Store
	mem   *wt.Memory
	// rawMem is mem for direct access (see call.go).
	rawMem guestMemory
	sp     *wt.Global
	fn     [driver.NumExports]guestFunc
	// ctxp is how guest calls reach the store: its wasmtime_context_t, or
	// the caller's while a host function runs.
	ctxp    unsafe.Pointer
	handle  cgo.Handle // names the instance to host functions
	callBuf callBuf
	// hostErr is a panic raised in a host function, as an error returned by
	// the guest call that ran it (see cmHostCall).
	hostErr error
	// hasResult is the runtime's, for host functions.
	hasResult []bool
}

// Instantiate makes a raw instance in a new store (no init, no template).
func (c *compiled) Instantiate(_ context.Context, drv *driver.Instance) (driver.Module, error) {
	store := wt.NewStore(c.engine)
	store.Limiter(c.memCap, -1, 1, -1, 1)
	store.SetEpochDeadline(noDeadline)
	in := &instance{drv: drv, store: store, ctxp: contextOf(store), hasResult: c.hasResult}
	in.handle = cgo.NewHandle(in)
	fail := func(err error) (driver.Module, error) {
		in.close()
		return nil, err
	}
	var imports []wt.AsExtern
	for _, imp := range c.module.Imports() {
		name := imp.Module() + "."
		if n := imp.Name(); n != nil {
			name += *n
		}
		i, ok := c.hostIndex[name]
		if !ok {
			return fail(fmt.Errorf("quickjs.wasm imports %s, which the engine does not provide", name))
		}
		f, err := in.newHostFunc(c.hostTypes[i], i)
		if err != nil {
			return fail(err)
		}
		imports = append(imports, f)
	}
	inst, err := wt.NewInstance(store, c.module, imports)
	if err != nil {
		return fail(err)
	}
	if ext := inst.GetExport(store, "memory"); ext == nil || ext.Memory() == nil {
		return fail(errors.New("quickjs.wasm lacks its memory export"))
	} else {
		in.mem = ext.Memory()
		if in.rawMem, err = rawMemory(in.mem); err != nil {
			return fail(err)
		}
	}
	if ext := inst.GetExport(store, "__stack_pointer"); ext == nil || ext.Global() == nil {
		return fail(errors.New("quickjs.wasm lacks a mutable __stack_pointer"))
	} else {
		in.sp = ext.Global()
	}
	if err := in.bind(inst); err != nil {
		return fail(err)
	}
	return in, nil
}

func (in *instance) Call(fn driver.Export, stack []uint64) error {
	a := &in.callBuf.args
	for i, v := range stack {
		a.set(i, v)
	}
	err := in.rawCall(&in.fn[fn])
	stack[0] = uint64(a.i32(0))
	return err
}

func (in *instance) Memory() []byte { return in.memory() }

// Mappable implements [driver.Mappable]: not yet. Mapped over wasmtime's
// own memory, the template passed every reset test but a snapshot moved
// wazero -> wasmtime -> wazero -> wasmtime restored a wrong value (the
// interchange test), cause not found; until it is, wasmtime compares every
// page, which is correct.
func (in *instance) Mappable() bool { return false }

func (in *instance) Grow(pages uint32) error {
	_, err := in.mem.Grow(in.store, uint64(pages))
	return err
}

func (in *instance) StackPointer() uint32 { return uint32(in.sp.Get(in.store).I32()) }

func (in *instance) SetStackPointer(sp uint32) error {
	return in.sp.Set(in.store, wt.ValI32(int32(sp)))
}

// StopAt sets the epoch deadline of the next guest calls, rounded up to
// whole ticks.
func (in *instance) StopAt(t time.Time) {
	ticks := uint64(noDeadline)
	if !t.IsZero() {
		ticks = uint64(max(time.Until(t), 0)/epochTick) + 1
	}
	in.store.SetEpochDeadline(ticks)
}

func (in *instance) Close(context.Context) { in.close() }

// close releases the instance's store and memory.
func (in *instance) close() {
	in.store.Close()
	in.handle.Delete()
}
