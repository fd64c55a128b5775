// Package quickjswasi is the production engine: the pinned quickjs.wasm of
// the npm package quickjs-wasi, run on the pure-Go wasm runtime wazero. The
// module is not part of this repository; [LoadModule] finds it (or fetches
// it once) when an engine starts.
//
// An [Engine] compiles the module once, builds a template image (the VM right
// after init, with the bridge and the host prelude loaded) and hands out
// cells from a pool of instances reset to that image. Suspended cells are
// snapshotted as the pages that differ from the template, XORed and
// compressed, and restored into pooled instances.
package quickjswasi

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
	"github.com/tetratelabs/wazero"
)

// WazeroVersion is the wasm runtime this engine is built on; the module's
// version is [QuickJSWasiVersion].
const WazeroVersion = "v1.12.0"

// CacheDirEnv overrides the default compilation cache directory.
const CacheDirEnv = "CODEMODE_CACHE_DIR"

// Options configure an [Engine]. A nil *Options means all defaults.
type Options struct {
	// CacheDir holds wazero's compilation cache, and the rewritten module and
	// the template image a start derives from the module. Empty means
	// $CODEMODE_CACHE_DIR, else <user cache dir>/codemode/wazero. "off"
	// disables the cache.
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
	// StopGrace is how long past its deadline a guest call may run before
	// it is stopped for good and its instance discarded (default 500ms).
	// Until then QuickJS's interrupt handler ends the cell cleanly.
	StopGrace time.Duration
	// Logger receives stop and cache reports (default: discarded).
	Logger *slog.Logger
	// Interpreter selects wazero's interpreter instead of its compiler. It is
	// 45-67x slower; only for platforms without the compiler.
	Interpreter bool
	// Module is quickjs-wasi's package/quickjs.wasm, for callers that ship
	// or fetch it themselves; it must match [QuickJSWasiSHA256]. Nil means
	// [LoadModule]'s own sources.
	Module []byte
	// Fetched is told the cache path when this start downloaded the module;
	// nil reports it at Info on Logger.
	Fetched func(path string)
}

type loadResult struct {
	wasm []byte
	err  error
}

// Engine owns a compiled module, its template image and a pool of instances.
// It is safe for concurrent use. Its behaviour is package driver's; this
// package provides wazero.
type Engine driver.Engine

var _ abi.Engine = (*Engine)(nil)

// New obtains the module (see [LoadModule]), compiles it (or loads it from
// the compilation cache) and builds the template image (or loads it from the
// same directory).
func New(ctx context.Context, opts *Options) (*Engine, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := driver.Config{Prelude: o.Prelude, Limits: o.Limits, MaxMemoryBytes: o.MaxMemoryBytes,
		MaxIdle: o.MaxIdle, StopGrace: o.StopGrace, Logger: o.Logger}.WithDefaults()

	rc := wazero.NewRuntimeConfigCompiler()
	if o.Interpreter {
		rc = wazero.NewRuntimeConfigInterpreter()
	}
	o.Logger = cfg.Logger
	// The module is obtained and verified while the start goes on: a warm
	// one compiles the rewritten module from the cache, and needs the
	// module's bytes only on a miss; a wrong or missing module still fails
	// the start, with the loader's error.
	loaded := make(chan loadResult, 1)
	go func() {
		b, err := LoadModule(ctx, &o)
		loaded <- loadResult{b, err}
	}()
	module := sync.OnceValues(func() ([]byte, error) { r := <-loaded; return r.wasm, r.err })
	rc = rc.WithMemoryLimitPages(uint32(cfg.MemoryCap() / image.WasmPage))
	dir := cacheDir(o.CacheDir)
	// The template is kept next to the compiled code, and is the same
	// whether the module was loaded or compiled.
	cfg.TemplateCache, cfg.ModuleHash = dir, QuickJSWasiSHA256
	e, err := driver.New(ctx, func() (driver.Runtime, error) {
		wasm, err := instrument(module, dir, cfg.Logger)
		if err != nil {
			return nil, err
		}
		rt, err := compile(ctx, rc, dir, wasm)
		if err != nil && dir != "" {
			// A cache that cannot be read or written (corrupted, truncated,
			// full disk, no permission) must not stop the engine: compile
			// in memory.
			cfg.Logger.Warn("wazero compilation cache unusable; compiling in memory (remove the directory to reset it)",
				"dir", dir, "err", err)
			rt, err = compile(ctx, rc, "", wasm)
		}
		if _, lerr := module(); lerr != nil {
			if err == nil {
				rt.Close(ctx)
			}
			return nil, lerr
		}
		if err != nil {
			return nil, err
		}
		return rt, nil
	}, cfg)
	return (*Engine)(e), err
}

// cacheDir resolves the compilation cache directory; "" means none.
func cacheDir(dir string) string {
	return driver.CacheDir(dir, CacheDirEnv, filepath.Join("codemode", "wazero"))
}

// CacheWarm reports whether dir (resolved like [Options.CacheDir]) already
// holds compiled code, so a caller can say once that the first start compiles.
func CacheWarm(dir string) bool { return driver.CacheWarm(cacheDir(dir)) }

func (e *Engine) d() *driver.Engine { return (*driver.Engine)(e) }

// Capabilities implements [abi.Engine].
func (e *Engine) Capabilities() abi.Capabilities { return e.d().Capabilities() }

// NewCell implements [abi.Engine]. The cell starts at the template state.
func (e *Engine) NewCell(ctx context.Context, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	return e.d().NewCell(ctx, limits, host)
}

// Restore implements [abi.Engine]: the image is applied to a pooled instance
// at template state, and the cell continues where the snapshot stopped.
func (e *Engine) Restore(ctx context.Context, img []byte, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	return e.d().Restore(ctx, img, limits, host)
}

// QuickJSVersion is the QuickJS-NG version inside the module.
func (e *Engine) QuickJSVersion() string { return e.d().QuickJSVersion() }

// TemplateHash identifies the template image snapshots are relative to.
func (e *Engine) TemplateHash() [32]byte { return e.d().TemplateHash() }

// Stopped counts guest calls stopped past their deadline and grace period.
func (e *Engine) Stopped() int { return e.d().Stopped() }

// Close closes every idle instance and the runtime.
func (e *Engine) Close(ctx context.Context) error { return e.d().Close(ctx) }
