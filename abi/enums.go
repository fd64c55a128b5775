package abi

import "strconv"

// OutputKind is the kind of one output item.
type OutputKind uint8

const (
	OutputText OutputKind = iota
	OutputJSON
)

// Interrupt is the reason the host wants the guest stopped.
type Interrupt uint8

const (
	InterruptNone Interrupt = iota
	InterruptDeadline
	InterruptAbort
)

// StepStatus is where a cell stands.
type StepStatus uint8

const (
	StepCompleted StepStatus = iota
	// StepPending means the cell's promise waits on host tickets.
	StepPending
	StepFailed
)

// FailureKind tells failures apart.
type FailureKind uint8

const (
	// FailureGuestException is an uncaught guest throw or rejection.
	FailureGuestException FailureKind = iota
	// FailureTimeout is an interrupt for the deadline.
	FailureTimeout
	// FailureAborted is an interrupt for an abort.
	FailureAborted
	// FailureMemoryLimit is the guest heap limit.
	FailureMemoryLimit
	// FailureStackOverflow is an uncaught stack overflow.
	FailureStackOverflow
	// FailureTrap is a wasm trap; the instance is discarded.
	FailureTrap
	// FailureUnavailable means the engine could not run the cell.
	FailureUnavailable
	// FailureSnapshot is an image that cannot be encoded or restored.
	FailureSnapshot
)

var (
	outputKindNames  = []string{"text", "json"}
	interruptNames   = []string{"none", "deadline", "abort"}
	stepStatusNames  = []string{"completed", "pending", "failed"}
	failureKindNames = []string{"guest-exception", "timeout", "aborted", "memory-limit",
		"stack-overflow", "trap", "unavailable", "snapshot"}
)

func enumName(names []string, i uint8, typ string) string {
	if int(i) < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(int(i)) + ")"
}

// String returns the WIT case name.
func (k OutputKind) String() string { return enumName(outputKindNames, uint8(k), "OutputKind") }

// String returns the WIT case name.
func (i Interrupt) String() string { return enumName(interruptNames, uint8(i), "Interrupt") }

// String returns the WIT case name.
func (s StepStatus) String() string { return enumName(stepStatusNames, uint8(s), "StepStatus") }

// String returns the WIT case name.
func (k FailureKind) String() string { return enumName(failureKindNames, uint8(k), "FailureKind") }
