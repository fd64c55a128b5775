// Package driver runs the pinned quickjs.wasm as a code mode engine on any
// wasm runtime: the template image, the pool of instances reset to it, cells
// and their failures, snapshots, limits and the deadline backstop. A runtime
// package (quickjswasi on wazero, wasmtime on wasmtime) provides only a
// [Runtime]: how to instantiate the module, call an export, reach linear
// memory and serve the imports through [Instance.CallImport].
//
// The driver owns all behaviour so that both runtimes build byte-identical
// templates and share snapshots; a runtime must not add guest-visible
// behaviour of its own.
package driver

import (
	"context"
	"errors"
	"time"
)

// Runtime is a wasm runtime with quickjs.wasm compiled and its imports bound
// to [Instance.CallImport]. The driver calls it from many goroutines.
type Runtime interface {
	// Instantiate makes a fresh, uninitialised instance whose host functions
	// act on in.
	Instantiate(ctx context.Context, in *Instance) (Module, error)
	// Close releases the runtime once every instance is closed.
	Close(ctx context.Context) error
}

// Module is one instance of quickjs.wasm. It is driven by one goroutine at
// a time; host functions re-enter it on that goroutine.
type Module interface {
	// Call calls export fn (an index into [Exports]) with its arguments in
	// stack and leaves its i32 result, if any, in stack[0]. Values are encoded
	// as in wazero's api package: an i32 zero-extended, an f64 as its bits. A
	// trap, or a panic in a host function it ran, is the error.
	Call(fn Export, stack []uint64) error
	// Memory is the whole linear memory; the next call or grow invalidates it.
	Memory() []byte
	// Grow adds pages of linear memory.
	Grow(pages uint32) error
	StackPointer() uint32
	SetStackPointer(sp uint32) error
	Close(ctx context.Context)
}

// Stopper is a Module whose runtime can stop a guest call itself: a call
// still running at the time given to StopAt (zero: never) returns an error
// that matches [ErrStopped]. A runtime without it must run a module
// instrumented by package preempt, whose ticks call env.host_interrupt: the
// driver stops the call there.
type Stopper interface {
	StopAt(t time.Time)
}

// Mappable is a Module whose linear memory the driver may map the template
// over copy-on-write (package cowmem), so that the kernel records the pages a
// cell writes: page-aligned memory of this process that only the instance
// uses. If the memory moves (a grow that reallocates), the driver notices
// and falls back to comparing pages.
type Mappable interface {
	Mappable() bool
}

// ErrStopped is matched (errors.Is) by the error of a guest call a [Stopper]
// stopped at its deadline.
var ErrStopped = errors.New("guest call stopped at its deadline")
