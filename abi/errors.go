package abi

import "strings"

// ErrorCode is the public code of a failed code-mode result. It implements
// error so that errors.Is works on wrapped failures.
type ErrorCode string

const (
	CodeInvalidInput          ErrorCode = "invalid_input"
	CodeRuntimeUnavailable    ErrorCode = "runtime_unavailable"
	CodeTimeout               ErrorCode = "timeout"
	CodeOutputLimitExceeded   ErrorCode = "output_limit_exceeded"
	CodeSnapshotLimitExceeded ErrorCode = "snapshot_limit_exceeded"
	CodeInternalError         ErrorCode = "internal_error"
	CodeAborted               ErrorCode = "aborted"
)

// ErrorCodes lists every code, in WIT order.
var ErrorCodes = []ErrorCode{CodeInvalidInput, CodeRuntimeUnavailable, CodeTimeout,
	CodeOutputLimitExceeded, CodeSnapshotLimitExceeded, CodeInternalError, CodeAborted}

func (c ErrorCode) Error() string { return "code mode " + strings.ReplaceAll(string(c), "_", " ") }

// Failure is why a step failed. It implements error; errors.Is(f, code)
// holds for the public code the failure maps to.
type Failure struct {
	Kind FailureKind
	// Name, Message and Stack describe a guest exception (Name is the
	// constructor name such as "TypeError"); other kinds set Message only.
	Name    string
	Message string
	Stack   string
}

func (f *Failure) Error() string {
	if f.Name != "" {
		return f.Name + ": " + f.Message
	}
	return f.Message
}

// Code is the public error code for the failure.
func (f *Failure) Code() ErrorCode {
	switch f.Kind {
	case FailureTimeout:
		return CodeTimeout
	case FailureAborted:
		return CodeAborted
	case FailureUnavailable, FailureTrap:
		return CodeRuntimeUnavailable
	case FailureSnapshot:
		return CodeInvalidInput
	}
	return CodeInternalError
}

// Is makes errors.Is(failure, code) true for the failure's public code.
func (f *Failure) Is(target error) bool {
	c, ok := target.(ErrorCode)
	return ok && c == f.Code()
}
