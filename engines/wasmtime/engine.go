//go:build wasmtime

// Package wasmtime is the hardened engine: the same pinned quickjs.wasm,
// bridge, prelude and ABI as package quickjswasi, run on wasmtime (through
// cgo) instead of wazero. It is built only with the build tag wasmtime.
//
// It behaves like the wazero engine (template image, pooled instances reset
// to it, Math.random reseeded per cell, QuickJS memory, stack and interrupt
// limits) and shares its snapshot format and template, so a snapshot taken on
// either runtime restores on the other. On top of that it uses wasmtime's own
// protections: every instance lives in a store of its own whose limiter caps
// linear memory, and epoch interruption stops a guest call that runs past its
// context deadline plus a grace period even when the guest ignores the
// interrupt poll.
//
// Guest calls and host functions use wasmtime's unchecked C API directly
// (call.go): through wasmtime-go's checked wrappers a crossing cost several
// microseconds, which put this engine 10x behind wazero. The C handles come
// from wasmtime-go's public AsExtern; the one private layout relied on (a
// wasmtime.Func is its C handle) is checked when an instance is made.
package wasmtime

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/cgo"
	"slices"
	"sync"
	"time"
	"unsafe"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/klauspost/compress/zstd"
	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// Versions of what this engine is built from.
const (
	QuickJSWasiVersion = quickjswasi.QuickJSWasiVersion
	WasmtimeVersion    = "v25.0.0"
)

// CacheDirEnv overrides the default compilation cache directory; it is the
// same variable as the wazero engine's, each runtime using its own files.
const CacheDirEnv = quickjswasi.CacheDirEnv

const (
	defaultMemory   = 64 << 20
	defaultStack    = 512 << 10
	maxStack        = 768 << 10 // the C stack is 1 MiB; QuickJS needs room below its limit
	maxPooledGrowth = 8 << 20   // instances grown further are dropped, not reset
	memoryHeadroom  = 16 << 20  // wasm memory beyond the largest QuickJS limit
	// maxWasmStack is wasmtime's native stack for wasm frames. Its default
	// (512 KiB) overflows before QuickJS's own 768 KiB limit on the C stack.
	maxWasmStack = 4 << 20
	epochTick    = 5 * time.Millisecond
	noDeadline   = 1 << 40 // epoch ticks: centuries
)

// Options configure an [Engine]. A nil *Options means all defaults. They
// mirror the wazero engine's options.
type Options struct {
	// CacheDir holds the compiled module. Empty means $CODEMODE_CACHE_DIR,
	// else <user cache dir>/codemode; the file lives in a "wasmtime"
	// subdirectory. "off" disables the cache.
	CacheDir string
	// Prelude is evaluated into the template after the bridge (see
	// abi.BridgeJS); it usually captures and deletes the bridge global.
	Prelude string
	// Limits apply to cells whose own limits are zero. Defaults: 64 MiB heap,
	// 512 KiB stack.
	Limits abi.Limits
	// MaxMemoryBytes caps any cell's heap limit (default 1 GiB); each store's
	// limiter caps wasm memory a little above it.
	MaxMemoryBytes uint32
	// MaxIdle bounds the idle instances kept for reuse (default 2*GOMAXPROCS).
	MaxIdle int
	// WatchdogGrace is how long past its context deadline a guest call may run
	// before wasmtime's epoch interruption stops it and its instance is
	// discarded (default 2s).
	WatchdogGrace time.Duration
	// Logger receives epoch stops and cache reports (default: discarded).
	Logger *slog.Logger
}

// Engine owns a compiled module, its template image and a pool of instances.
// It is safe for concurrent use.
type Engine struct {
	opts   Options
	engine *wt.Engine
	module *wt.Module
	// hosts are the module's imports, in an order fixed at New; hostTypes
	// are their C function types and hostIndex finds them by name.
	hosts     []hostFunc
	hostTypes []unsafe.Pointer
	hostIndex map[string]int
	tmpl      *template
	idle      chan *instance
	enc       *zstd.Encoder
	dec       *zstd.Decoder

	mu      sync.Mutex
	closed  bool
	stopped int
	stop    chan struct{}
	wg      sync.WaitGroup
	seedMu  sync.Mutex
	rng     *rand.ChaCha8
}

var _ abi.Engine = (*Engine)(nil)

// New compiles the module (or loads it from the compilation cache) and builds
// the template image.
func New(ctx context.Context, opts *Options) (*Engine, error) {
	e := &Engine{stop: make(chan struct{}), hostIndex: map[string]int{}}
	if opts != nil {
		e.opts = *opts
	}
	o := &e.opts
	if o.Limits.MemoryBytes == 0 {
		o.Limits.MemoryBytes = defaultMemory
	}
	if o.Limits.StackBytes == 0 {
		o.Limits.StackBytes = defaultStack
	}
	if o.MaxMemoryBytes == 0 {
		o.MaxMemoryBytes = 1 << 30
	}
	if o.MaxIdle <= 0 {
		o.MaxIdle = 2 * runtime.GOMAXPROCS(0)
	}
	if o.WatchdogGrace <= 0 {
		o.WatchdogGrace = 2 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[:], rand.Uint64())
	binary.LittleEndian.PutUint64(seed[8:], rand.Uint64())
	e.rng = rand.NewChaCha8(seed)
	e.idle = make(chan *instance, o.MaxIdle)

	cfg := wt.NewConfig()
	cfg.SetEpochInterruption(true)
	cfg.SetMaxWasmStack(maxWasmStack)
	e.engine = wt.NewEngineWithConfig(cfg)
	fail := func(err error) (*Engine, error) {
		for _, t := range e.hostTypes {
			deleteFuncType(t)
		}
		e.engine.Close()
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "start quickjs-wasi engine on wasmtime: " + err.Error()}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	var err error
	if e.module, err = e.compile(); err != nil {
		return fail(err)
	}
	if len(hostFuncs) > 1<<hostIndexBits {
		return fail(errors.New("too many host functions for their env encoding"))
	}
	for _, name := range slices.Sorted(maps.Keys(hostFuncs)) {
		e.hostIndex[name] = len(e.hosts)
		e.hosts = append(e.hosts, hostFuncs[name])
		e.hostTypes = append(e.hostTypes, newFuncType(hostFuncs[name]))
	}
	e.enc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	e.dec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(o.MaxMemoryBytes)+memoryHeadroom))
	first, err := e.buildTemplate()
	if err != nil {
		e.enc.Close()
		e.dec.Close()
		return fail(err)
	}
	e.idle <- first
	e.wg.Add(1)
	go e.tick()
	return e, nil
}

// compile compiles quickjs.wasm with Cranelift, or loads the native code a
// previous process cached for this module and this wasmtime.
func (e *Engine) compile() (*wt.Module, error) {
	wasm := quickjswasi.WASM()
	dir := cacheDir(e.opts.CacheDir)
	if dir == "" {
		return wt.NewModule(e.engine, wasm)
	}
	sum := sha256.Sum256(wasm)
	file := filepath.Join(dir, "quickjs-"+hex.EncodeToString(sum[:8])+"-"+WasmtimeVersion+"-"+runtime.GOARCH+".cwasm")
	if _, err := os.Stat(file); err == nil {
		if m, err := wt.NewModuleDeserializeFile(e.engine, file); err == nil {
			return m, nil
		} else {
			e.opts.Logger.Warn("wasmtime compilation cache entry unusable; recompiling", "file", file, "err", err)
		}
	}
	m, err := wt.NewModule(e.engine, wasm)
	if err != nil {
		return nil, err
	}
	if err := writeCache(dir, file, m); err != nil {
		e.opts.Logger.Warn("wasmtime compilation cache not written", "dir", dir, "err", err)
	}
	return m, nil
}

func writeCache(dir, file string, m *wt.Module) error {
	b, err := m.Serialize()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".cwasm-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// cacheDir resolves the compilation cache directory; "" means none.
func cacheDir(dir string) string {
	if dir == "" {
		dir = os.Getenv(CacheDirEnv)
	}
	if dir == "off" {
		return ""
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "codemode")
	}
	return filepath.Join(dir, "wasmtime")
}

// CacheWarm reports whether dir (resolved like [Options.CacheDir]) already
// holds compiled code, so a caller can say once that the first start compiles.
func CacheWarm(dir string) bool {
	dir = cacheDir(dir)
	if dir == "" {
		return false
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}

// Capabilities implements [abi.Engine].
func (e *Engine) Capabilities() abi.Capabilities {
	return abi.Capabilities{Snapshot: true, MemoryLimit: true, StackLimit: true, Interrupt: true}
}

// QuickJSVersion is the QuickJS-NG version inside the module.
func (e *Engine) QuickJSVersion() string { return e.tmpl.version }

// TemplateHash identifies the template image snapshots are relative to; it
// equals the wazero engine's for the same prelude.
func (e *Engine) TemplateHash() [32]byte { return e.tmpl.Hash }

// Stopped counts guest calls the epoch backstop stopped past their deadline.
func (e *Engine) Stopped() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}

// Close stops the epoch ticker and closes every idle instance, the module and
// the wasmtime engine. Cells still open keep their own store until closed.
func (e *Engine) Close(context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	close(e.stop)
	e.wg.Wait()
	for {
		select {
		case in := <-e.idle:
			in.close()
		default:
			e.enc.Close()
			e.dec.Close()
			e.module.Close()
			for _, t := range e.hostTypes {
				deleteFuncType(t)
			}
			e.engine.Close()
			return nil
		}
	}
}

// tick advances the engine's epoch; guest calls are stopped at a deadline
// counted in ticks.
func (e *Engine) tick() {
	defer e.wg.Done()
	t := time.NewTicker(epochTick)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			e.engine.IncrementEpoch()
		}
	}
}

func (e *Engine) seed() uint32 {
	e.seedMu.Lock()
	defer e.seedMu.Unlock()
	return uint32(e.rng.Uint64())
}

// limits fills zero fields with the engine's defaults and clamps the rest.
func (e *Engine) limits(l abi.Limits) abi.Limits {
	if l.MemoryBytes == 0 {
		l.MemoryBytes = e.opts.Limits.MemoryBytes
	}
	if l.StackBytes == 0 {
		l.StackBytes = e.opts.Limits.StackBytes
	}
	l.MemoryBytes = min(l.MemoryBytes, e.opts.MaxMemoryBytes)
	l.StackBytes = min(l.StackBytes, maxStack)
	return l
}

// instantiate makes a raw instance in a new store (no init, no template).
func (e *Engine) instantiate() (*instance, error) {
	store := wt.NewStore(e.engine)
	store.Limiter(int64(e.opts.MaxMemoryBytes)+memoryHeadroom, -1, 1, -1, 1)
	store.SetEpochDeadline(noDeadline)
	in := &instance{eng: e, store: store, ctxp: contextOf(store)}
	in.handle = cgo.NewHandle(in)
	var imports []wt.AsExtern
	for _, imp := range e.module.Imports() {
		name := imp.Module() + "."
		if n := imp.Name(); n != nil {
			name += *n
		}
		i, ok := e.hostIndex[name]
		if !ok {
			in.close()
			return nil, fmt.Errorf("quickjs.wasm imports %s, which the engine does not provide", name)
		}
		f, err := in.newHostFunc(e.hostTypes[i], i)
		if err != nil {
			in.close()
			return nil, err
		}
		imports = append(imports, f)
	}
	inst, err := wt.NewInstance(store, e.module, imports)
	if err != nil {
		in.close()
		return nil, err
	}
	fail := func(err error) (*instance, error) {
		in.close()
		return nil, err
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
	if err := in.fn.bind(store, inst, e.tmpl == nil); err != nil {
		return fail(err)
	}
	return in, nil
}

// acquire takes an idle instance at template state, or makes one.
func (e *Engine) acquire() (*instance, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "quickjs-wasi engine is closed"}
	}
	select {
	case in := <-e.idle:
		return in, nil
	default:
	}
	in, err := e.instantiate()
	if err != nil {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "instantiate quickjs-wasi on wasmtime: " + err.Error()}
	}
	if err := e.tmpl.load(in); err != nil {
		in.close()
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "load template: " + err.Error()}
	}
	return in, nil
}

// release resets an instance to the template and pools it, or drops it.
func (e *Engine) release(in *instance) {
	in.host = nil
	in.interrupted, in.outOfMemory = abi.InterruptNone, false
	in.ctxp = contextOf(in.store)
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if in.dead || closed || !e.tmpl.reset(in) {
		in.close()
		return
	}
	select {
	case e.idle <- in:
	default:
		in.close()
	}
}

// arm sets the epoch deadline of the next guest call from ctx: its deadline
// plus the grace period, rounded up to whole ticks.
func (in *instance) arm(ctx context.Context) {
	ticks := uint64(noDeadline)
	if d, ok := ctx.Deadline(); ok {
		left := max(time.Until(d)+in.eng.opts.WatchdogGrace, 0)
		ticks = uint64(left/epochTick) + 1
	}
	in.store.SetEpochDeadline(ticks)
}

// stoppedByEpoch reports whether a trap is wasmtime's epoch interruption.
func stoppedByEpoch(err error) bool {
	var c *callError
	return errors.As(err, &c) && c.hasCode && c.code == wt.Interrupt
}

func (e *Engine) noteStop() {
	e.mu.Lock()
	e.stopped++
	e.mu.Unlock()
	e.opts.Logger.Error("quickjs-wasi guest call ran past its deadline; wasmtime stopped it and its instance is discarded")
}
