package driver

import (
	"context"
	"encoding/binary"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

const (
	defaultMemory   = 64 << 20
	defaultStack    = 512 << 10
	maxStack        = 768 << 10 // the C stack is 1 MiB; QuickJS needs room below its limit
	maxPooledGrowth = 8 << 20   // instances grown further are dropped, not reset
	memoryHeadroom  = 16 << 20  // wasm memory beyond the largest QuickJS limit
)

// MaxStackBytes is the largest QuickJS stack limit a cell gets.
const MaxStackBytes = maxStack

// DefaultStopGrace is how long past its deadline a guest call runs before it
// is stopped for good. Until then QuickJS's interrupt handler ends the cell
// cleanly and its instance is reused; only code that never polls the handler
// (a builtin looping in C, the parser) gets that far.
const DefaultStopGrace = 500 * time.Millisecond

// Config is what the engine packages' options have in common; see their
// Options for the meaning and defaults of each field.
type Config struct {
	// Runtime names the wasm runtime in messages; empty for the default one.
	Runtime        string
	Prelude        string
	Limits         abi.Limits
	MaxMemoryBytes uint32
	MaxIdle        int
	StopGrace      time.Duration
	Logger         *slog.Logger
	// TemplateCache is a directory where the template is kept between
	// processes, "" for none; ModuleHash (the module's sha256) is part of
	// the entry's key.
	TemplateCache string
	ModuleHash    string
}

// WithDefaults fills the zero fields. Runtimes call it before they are made,
// since their memory cap and logging depend on it.
func (c Config) WithDefaults() Config {
	if c.Limits.MemoryBytes == 0 {
		c.Limits.MemoryBytes = defaultMemory
	}
	if c.Limits.StackBytes == 0 {
		c.Limits.StackBytes = defaultStack
	}
	if c.MaxMemoryBytes == 0 {
		c.MaxMemoryBytes = 1 << 30
	}
	if c.MaxIdle <= 0 {
		c.MaxIdle = 2 * runtime.GOMAXPROCS(0)
	}
	if c.StopGrace <= 0 {
		c.StopGrace = DefaultStopGrace
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// MemoryCap is the most linear memory an instance may have: a little above
// the largest QuickJS heap limit, so QuickJS reports running out first.
func (c Config) MemoryCap() uint64 { return uint64(c.MaxMemoryBytes) + memoryHeadroom }

// on is the suffix naming a runtime other than the default in messages.
func (c Config) on() string {
	if c.Runtime == "" {
		return ""
	}
	return " on " + c.Runtime
}

// Engine owns a runtime, its template image and a pool of instances. It is
// safe for concurrent use.
type Engine struct {
	cfg  Config
	rt   Runtime
	tmpl *template
	idle chan *Instance
	enc  *zstd.Encoder
	dec  *zstd.Decoder

	mu      sync.Mutex
	closed  bool
	stopped int
	seedMu  sync.Mutex
	rng     *rand.ChaCha8
}

var _ abi.Engine = (*Engine)(nil)

// New builds the engine on the runtime compile returns. The template's cache
// entry needs no runtime, so it is read and put in its image meanwhile: on a
// warm start that hides the template's load behind compiling. On failure New
// closes the runtime; a failure of compile is returned as the engine's.
func New(ctx context.Context, compile func() (Runtime, error), cfg Config) (*Engine, error) {
	e := &Engine{cfg: cfg.WithDefaults()}
	unavailable := func(err error) (*Engine, error) {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "start quickjs-wasi engine" + e.cfg.on() + ": " + err.Error()}
	}
	cached := make(chan *template, 1)
	go func() { cached <- e.cachedTemplate() }()
	rt, err := compile()
	t := <-cached
	if err != nil {
		t.close()
		return unavailable(err)
	}
	e.rt = rt
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[:], rand.Uint64())
	binary.LittleEndian.PutUint64(seed[8:], rand.Uint64())
	e.rng = rand.NewChaCha8(seed)
	e.idle = make(chan *Instance, e.cfg.MaxIdle)
	e.enc = image.NewEncoder()
	e.dec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(e.cfg.MemoryCap()))
	first, err := e.startTemplate(ctx, t)
	if err != nil {
		if e.tmpl != nil {
			e.tmpl.close()
		}
		e.enc.Close()
		e.dec.Close()
		rt.Close(ctx)
		return unavailable(err)
	}
	e.idle <- first
	return e, nil
}

// Capabilities implements [abi.Engine].
func (e *Engine) Capabilities() abi.Capabilities {
	return abi.Capabilities{Snapshot: true, MemoryLimit: true, StackLimit: true, Interrupt: true}
}

// QuickJSVersion is the QuickJS-NG version inside the module.
func (e *Engine) QuickJSVersion() string { return e.tmpl.version }

// TemplateHash identifies the template image snapshots are relative to.
func (e *Engine) TemplateHash() [32]byte { return e.tmpl.Hash }

// Stopped counts guest calls stopped past their deadline and grace period.
func (e *Engine) Stopped() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}

// Close closes every idle instance and the runtime.
// Cells still open keep their instance until closed.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	for {
		select {
		case in := <-e.idle:
			in.mod.Close(ctx)
		default:
			e.tmpl.close() // open cells keep their mappings
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
		l.MemoryBytes = e.cfg.Limits.MemoryBytes
	}
	if l.StackBytes == 0 {
		l.StackBytes = e.cfg.Limits.StackBytes
	}
	l.MemoryBytes = min(l.MemoryBytes, e.cfg.MaxMemoryBytes)
	l.StackBytes = min(l.StackBytes, maxStack)
	return l
}

// instantiate makes a raw instance (no init, no template).
func (e *Engine) instantiate(ctx context.Context) (*Instance, error) {
	in := &Instance{eng: e}
	mod, err := e.rt.Instantiate(ctx, in)
	if err != nil {
		return nil, err
	}
	in.mod = mod
	in.stopper, _ = mod.(Stopper)
	return in, nil
}
