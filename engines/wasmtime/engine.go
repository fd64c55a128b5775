//go:build wasmtime

// Package wasmtime is the hardened engine: the same pinned quickjs.wasm,
// bridge, prelude and ABI as package quickjswasi, run on wasmtime (through
// cgo) instead of wazero. It is built only with the build tag wasmtime.
//
// It behaves like the wazero engine (template image, pooled instances reset
// to it, Math.random reseeded per cell, QuickJS memory, stack and interrupt
// limits) and shares its snapshot format and template, so a snapshot taken on
// either runtime restores on the other: both are package driver over their
// own runtime. On top of that it uses wasmtime's own protections: every
// instance lives in a store of its own whose limiter caps linear memory, and
// epoch interruption stops a guest call that runs past its context deadline
// plus a grace period even when the guest ignores the interrupt poll.
//
// Guest calls and host functions use wasmtime's unchecked C API directly
// (call.go): through wasmtime-go's checked wrappers a crossing cost several
// microseconds, which put this engine 10x behind wazero. The C handles come
// from wasmtime-go's public AsExtern; the one private layout relied on (a
// wasmtime.Func is its C handle) is checked when an instance is made.
package wasmtime

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
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

// Options configure an [Engine]. A nil *Options means all defaults. They
// mirror the wazero engine's options.
type Options struct {
	// CacheDir holds the compiled module and the template image. Empty
	// means $CODEMODE_CACHE_DIR, else <user cache dir>/codemode; the files
	// live in a "wasmtime" subdirectory. "off" disables the cache.
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
	// StopGrace is how long past its deadline a guest call may run before
	// it is stopped for good and its instance discarded (default 500ms).
	// Until then QuickJS's interrupt handler ends the cell cleanly.
	StopGrace time.Duration
	// Logger receives epoch stops and cache reports (default: discarded).
	Logger *slog.Logger
	// Module and Fetched are the wazero engine's: the pinned quickjs.wasm
	// when the caller has it, and who hears of a download (see
	// quickjswasi.LoadModule).
	Module  []byte
	Fetched func(path string)
}

// Engine owns a compiled module, its template image and a pool of instances.
// It is safe for concurrent use.
type Engine driver.Engine

var _ abi.Engine = (*Engine)(nil)

// New obtains the module like the wazero engine, compiles it (or loads it
// from the compilation cache) and builds the template image (or loads it from
// the same directory).
func New(ctx context.Context, opts *Options) (*Engine, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := driver.Config{Runtime: "wasmtime", Prelude: o.Prelude, Limits: o.Limits, MaxMemoryBytes: o.MaxMemoryBytes,
		MaxIdle: o.MaxIdle, StopGrace: o.StopGrace, Logger: o.Logger}.WithDefaults()
	fail := func(err error) (*Engine, error) {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "start quickjs-wasi engine on wasmtime: " + err.Error()}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	wasm, err := quickjswasi.LoadModule(ctx, &quickjswasi.Options{Module: o.Module, Fetched: o.Fetched, Logger: cfg.Logger})
	if err != nil {
		return fail(err)
	}
	dir := cacheDir(o.CacheDir)
	// The template is kept next to the compiled code (see driver.Config).
	cfg.TemplateCache, cfg.ModuleHash = dir, quickjswasi.QuickJSWasiSHA256
	e, err := driver.New(ctx, func() (driver.Runtime, error) {
		rt, err := newRuntime(cfg, wasm, dir)
		if err != nil {
			return nil, err
		}
		return rt, nil
	}, cfg)
	return (*Engine)(e), err
}

// cacheDir resolves the compilation cache directory; "" means none.
func cacheDir(dir string) string {
	if dir = driver.CacheDir(dir, CacheDirEnv, "codemode"); dir == "" {
		return ""
	}
	return filepath.Join(dir, "wasmtime")
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

// Restore implements [abi.Engine]: the image, from this engine or the wazero
// one, is applied to a pooled instance at template state, and the cell
// continues where the snapshot stopped.
func (e *Engine) Restore(ctx context.Context, img []byte, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	return e.d().Restore(ctx, img, limits, host)
}

// QuickJSVersion is the QuickJS-NG version inside the module.
func (e *Engine) QuickJSVersion() string { return e.d().QuickJSVersion() }

// TemplateHash identifies the template image snapshots are relative to; it
// equals the wazero engine's for the same prelude.
func (e *Engine) TemplateHash() [32]byte { return e.d().TemplateHash() }

// Stopped counts guest calls the epoch backstop stopped past their deadline.
func (e *Engine) Stopped() int { return e.d().Stopped() }

// Close stops the epoch ticker and closes every idle instance, the module and
// the wasmtime engine. Cells still open keep their own store until closed.
func (e *Engine) Close(ctx context.Context) error { return e.d().Close(ctx) }
