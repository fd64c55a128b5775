// Package quickjswasi is the production engine: the pinned quickjs.wasm of
// the npm package quickjs-wasi, run on the pure-Go wasm runtime wazero.
//
// An [Engine] compiles the module once, builds a template image (the VM right
// after init, with the bridge and the host prelude loaded) and hands out
// cells from a pool of instances reset to that image. Suspended cells are
// snapshotted as the pages that differ from the template, XORed and
// compressed, and restored into pooled instances.
package quickjswasi

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

//go:embed quickjs.wasm
var quickjsWasm []byte

// Versions of what this engine is built from.
const (
	QuickJSWasiVersion = "3.7.0"
	WazeroVersion      = "v1.12.0"
)

// WASM returns a copy of the pinned quickjs.wasm the engine embeds, so that
// engines on other wasm runtimes build the same template and share snapshots.
func WASM() []byte { return bytes.Clone(quickjsWasm) }

// CacheDirEnv overrides the default compilation cache directory.
const CacheDirEnv = "CODEMODE_CACHE_DIR"

const (
	wasmPage        = image.WasmPage
	defaultMemory   = 64 << 20
	defaultStack    = 512 << 10
	maxStack        = 768 << 10 // the C stack is 1 MiB; QuickJS needs room below its limit
	maxPooledGrowth = 8 << 20   // instances grown further are dropped, not reset
	memoryHeadroom  = 16 << 20  // wasm pages beyond the largest QuickJS limit
)

// Options configure an [Engine]. A nil *Options means all defaults.
type Options struct {
	// CacheDir holds wazero's compilation cache. Empty means $CODEMODE_CACHE_DIR,
	// else <user cache dir>/codemode/wazero. "off" disables the cache.
	CacheDir string
	// Prelude is evaluated into the template after the bridge (see
	// abi.BridgeJS); it usually captures and deletes the bridge global.
	Prelude string
	// Limits apply to cells whose own limits are zero. Defaults: 64 MiB heap,
	// 512 KiB stack.
	Limits abi.Limits
	// MaxMemoryBytes caps any cell's heap limit (default 1 GiB); wasm memory is
	// capped a little above it.
	MaxMemoryBytes uint32
	// MaxIdle bounds the idle instances kept for reuse (default 2*GOMAXPROCS).
	MaxIdle int
	// WatchdogGrace is how long past its context deadline a guest call may run
	// before the watchdog takes its instance out of service (default 2s).
	WatchdogGrace time.Duration
	// Logger receives watchdog and cache reports (default: discarded).
	Logger *slog.Logger
	// Interpreter selects wazero's interpreter instead of its compiler. It is
	// 45-67x slower; only for platforms without the compiler.
	Interpreter bool
}

// Engine owns a compiled module, its template image and a pool of instances.
// It is safe for concurrent use.
type Engine struct {
	opts     Options
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	tmpl     *template
	idle     chan *instance
	enc      *zstd.Encoder
	dec      *zstd.Decoder

	mu     sync.Mutex
	busy   map[*instance]struct{}
	closed bool
	stop   chan struct{}
	wg     sync.WaitGroup
	seedMu sync.Mutex
	rng    *rand.ChaCha8

	quarantined int
}

var _ abi.Engine = (*Engine)(nil)

// New compiles the module (or loads it from the compilation cache) and builds
// the template image.
func New(ctx context.Context, opts *Options) (*Engine, error) {
	e := &Engine{busy: map[*instance]struct{}{}, stop: make(chan struct{})}
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

	cfg := wazero.NewRuntimeConfigCompiler()
	if o.Interpreter {
		cfg = wazero.NewRuntimeConfigInterpreter()
	}
	cfg = cfg.WithMemoryLimitPages((o.MaxMemoryBytes + memoryHeadroom) / wasmPage)
	dir := cacheDir(o.CacheDir)
	err := e.compile(ctx, cfg, dir)
	if err != nil && dir != "" {
		// A cache that cannot be read or written (corrupted, truncated, full
		// disk, no permission) must not stop the engine: compile in memory.
		o.Logger.Warn("wazero compilation cache unusable; compiling in memory (remove the directory to reset it)",
			"dir", dir, "err", err)
		err = e.compile(ctx, cfg, "")
	}
	if err != nil {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "start quickjs-wasi engine: " + err.Error()}
	}
	fail := func(err error) (*Engine, error) {
		e.rt.Close(ctx)
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "start quickjs-wasi engine: " + err.Error()}
	}
	e.enc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	e.dec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(o.MaxMemoryBytes)+memoryHeadroom))
	first, err := e.buildTemplate(ctx)
	if err != nil {
		return fail(err)
	}
	e.idle <- first
	e.wg.Add(1)
	go e.watchdog()
	return e, nil
}

// compile makes the runtime, its imports and the compiled module, with the
// compilation cache in dir ("" for none).
func (e *Engine) compile(ctx context.Context, cfg wazero.RuntimeConfig, dir string) error {
	if dir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return err
		}
		cfg = cfg.WithCompilationCache(cache)
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	err := instantiateImports(ctx, e.rt)
	if err == nil {
		e.compiled, err = e.rt.CompileModule(ctx, quickjsWasm)
	}
	if err != nil {
		e.rt.Close(ctx)
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
		dir = filepath.Join(base, "codemode", "wazero")
	}
	return dir
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

// TemplateHash identifies the template image snapshots are relative to.
func (e *Engine) TemplateHash() [32]byte { return e.tmpl.Hash }

// Quarantined counts instances the watchdog took out of service.
func (e *Engine) Quarantined() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.quarantined
}

// Close stops the watchdog and closes every instance and the runtime.
func (e *Engine) Close(ctx context.Context) error {
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
			in.mod.Close(ctx)
		default:
			e.enc.Close()
			e.dec.Close()
			return e.rt.Close(ctx)
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

// instantiate makes a raw module instance (no init, no template).
func (e *Engine) instantiate(ctx context.Context) (*instance, error) {
	in := &instance{eng: e}
	in.ctx = context.WithValue(context.Background(), instanceKey{}, in)
	mod, err := e.rt.InstantiateModule(ctx, e.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	in.mod, in.mem = mod, mod.Memory()
	sp, ok := mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok {
		mod.Close(ctx)
		return nil, errors.New("quickjs.wasm lacks a mutable __stack_pointer")
	}
	in.sp = sp
	if err := in.fn.bind(mod); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

// acquire takes an idle instance at template state, or makes one.
func (e *Engine) acquire(ctx context.Context) (*instance, error) {
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
	in, err := e.instantiate(ctx)
	if err != nil {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "instantiate quickjs-wasi: " + err.Error()}
	}
	if err := e.tmpl.load(in); err != nil {
		in.mod.Close(ctx)
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "load template: " + err.Error()}
	}
	return in, nil
}

// release resets an instance to the template and pools it, or drops it.
func (e *Engine) release(in *instance) {
	in.host = nil
	in.interrupted, in.outOfMemory = abi.InterruptNone, false
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if in.dead || in.quarantined.Load() || closed || !e.tmpl.reset(in) {
		in.mod.Close(context.Background())
		return
	}
	select {
	case e.idle <- in:
	default:
		in.mod.Close(context.Background())
	}
}

// watchdog takes out of service instances whose guest call overran its
// deadline by more than the grace period. wazero cannot stop such a call
// without making every call slower, so the instance is never reused and the
// overrun is reported.
func (e *Engine) watchdog() {
	defer e.wg.Done()
	tick := time.NewTicker(min(e.opts.WatchdogGrace/4, 50*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-e.stop:
			return
		case now := <-tick.C:
			e.mu.Lock()
			for in := range e.busy {
				d := in.deadline.Load()
				if d != 0 && in.busySince.Load() != 0 && now.UnixNano() > d+int64(e.opts.WatchdogGrace) {
					in.quarantined.Store(true)
					delete(e.busy, in)
					e.quarantined++
					e.opts.Logger.Error("quickjs-wasi instance did not return after its deadline; taken out of service",
						"overrun", time.Duration(now.UnixNano()-d))
				}
			}
			e.mu.Unlock()
		}
	}
}

func (e *Engine) track(in *instance, on bool) {
	e.mu.Lock()
	if on {
		e.busy[in] = struct{}{}
	} else {
		delete(e.busy, in)
	}
	e.mu.Unlock()
}

// version reads the QuickJS-NG version string.
func (in *instance) version() string {
	p := in.call32(in.fn.version)
	b := in.bytes(p, 64)
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
