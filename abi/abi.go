// Package abi is the Go mirror of bridgeabi.wit: the narrow interface between
// the codemode host and a JavaScript engine. It is a leaf package; engines and
// the host both import it, and it imports nothing from this module.
//
// Values cross the ABI as JSON text only (see [Step.Value] and [Outcome]); no
// host object ever enters a guest VM.
package abi

import "context"

// Ticket names one asynchronous host request. The host chooses tickets and
// keeps them unique within a run, across snapshots and restores.
type Ticket uint32

// Host is what the host provides to a cell (WIT interface host). Its methods
// are called on the goroutine that drives the cell and must not block.
type Host interface {
	// Request starts an asynchronous request. The guest receives a promise at
	// once; the host later settles it with [Cell.Settle]. An error is thrown
	// synchronously into the guest as a plain Error with its message.
	Request(op, payload string) (Ticket, error)
	// Emit appends one output item; an error (such as the output limit) is
	// thrown into the guest.
	Emit(kind OutputKind, payload string) error
	// ShouldInterrupt is polled while guest code runs; a reason other than
	// [InterruptNone] stops the guest with an uncatchable error.
	ShouldInterrupt() Interrupt
}

// Engine creates cells (WIT interface engine). Engines are safe for
// concurrent use; Close releases everything they own, cells included.
type Engine interface {
	Capabilities() Capabilities
	// NewCell returns a fresh cell at the engine's template state.
	NewCell(ctx context.Context, limits Limits, host Host) (Cell, error)
	// Restore returns a cell continuing exactly where a snapshot stopped.
	// Malformed, truncated or foreign images give a *[Failure] of kind
	// [FailureSnapshot].
	Restore(ctx context.Context, image []byte, limits Limits, host Host) (Cell, error)
	Close(ctx context.Context) error
}

// Cell is one guest VM (WIT resource cell). A Cell is not safe for
// concurrent use; after Close it must not be used.
type Cell interface {
	// Run evaluates source as the body of an async function whose first line
	// is the source's first line: return gives the value and await works.
	Run(ctx context.Context, source, filename string) Step
	// Settle resolves or rejects the promise of ticket and drains pending jobs.
	Settle(ctx context.Context, ticket Ticket, outcome Outcome) Step
	// Snapshot encodes a suspended cell to portable bytes.
	Snapshot(ctx context.Context) ([]byte, error)
	Close(ctx context.Context) error
}

// Limits bound one cell. A zero field means the engine's default.
type Limits struct {
	MemoryBytes uint32
	StackBytes  uint32
}

// Capabilities says what an engine can do.
type Capabilities struct {
	Snapshot    bool
	MemoryLimit bool
	StackLimit  bool
	Interrupt   bool
}

// Step is where a cell stands after [Cell.Run] or [Cell.Settle].
type Step struct {
	Status StepStatus
	// Value is the JSON text of the returned value when Status is
	// [StepCompleted]; a missing or undefined value is "null".
	Value   string
	Failure *Failure
}

// Outcome settles a ticket.
type Outcome struct {
	Rejected bool
	// Value is JSON text when resolved and an error message when rejected.
	Value string
}

// Resolve is an outcome that resolves a ticket's promise with JSON text.
func Resolve(json string) Outcome { return Outcome{Value: json} }

// Reject is an outcome that rejects a ticket's promise with a plain Error.
func Reject(message string) Outcome { return Outcome{Rejected: true, Value: message} }
