package host

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
)

// Status is what a [Result] reports of its run.
type Status string

// Result statuses.
const (
	StatusCompleted Status = "completed"
	StatusWaiting   Status = "waiting"
	StatusFailed    Status = "failed"
)

func (s Status) String() string { return string(s) }

// Reason is a [Result]'s finer cause: why a waiting run waits, or what a
// failed one met beyond its Code. A rejected source passes the source
// check's own reason on (module_access_denied, source_too_deep, ...).
type Reason string

// Reasons of waiting and failed results.
const (
	ReasonPendingTools    Reason = "pending_tools"           // waiting on calls or timers
	ReasonYield           Reason = "yield"                   // waiting on yield_control alone
	ReasonBlocked         Reason = "blocked"                 // a hook blocked the exec
	ReasonBusy            Reason = "busy"                    // no cell slot before the deadline
	ReasonSourceCheck     Reason = "source_check"            // the source check ran out of time
	ReasonRestartSafe     Reason = "restart_safe"            // a restart-safe cell did what it may not
	ReasonTooDeep         Reason = "too_deep"                // a value nested past what JSON encodes
	ReasonLegOverrun      Reason = "leg_overrun"             // a leg ran past the backstop
	ReasonMemoryLimit     Reason = "memory_limit_exceeded"   // the cell's heap ran out
	ReasonNamespaceScope  Reason = "namespace_scope"         // a namespace scope could not be built
	ReasonSnapshotRestore Reason = "snapshot_restore_failed" // a parked run did not restore
	ReasonLost            Reason = "lost"                    // a parked run's call, or its outcome, was lost
	ReasonRunStore        Reason = "run_store"               // the run store failed
)

func (r Reason) String() string { return string(r) }

// Result is the CodeModeResult union returned by exec and wait. Which fields
// are set depends on Status.
type Result struct {
	Status Status `json:"status"`
	// Value is the JSON of the cell's return value (completed).
	Value json.RawMessage `json:"value,omitempty"`
	// RunID and PendingToolCalls describe a waiting result; Reason is
	// "pending_tools" or "yield" there, and the finer failure cause
	// (memory_limit_exceeded, module_access_denied, ...) on a failed one.
	RunID string `json:"runId,omitempty"`
	// ReplayID names a waiting restart-safe run for recovery from the
	// transcript; ReplaySafe marks every result of a restart-safe exec.
	ReplayID         string            `json:"replayId,omitempty"`
	ReplaySafe       bool              `json:"replaySafe,omitempty"`
	Reason           Reason            `json:"reason,omitempty"`
	PendingToolCalls []PendingToolCall `json:"pendingToolCalls,omitempty"`
	Error            string            `json:"error,omitempty"`
	Code             abi.ErrorCode     `json:"code,omitempty"`
	// Output holds only what the cell produced since the run's previous result.
	Output    []Output  `json:"output,omitempty"`
	Telemetry Telemetry `json:"telemetry"`
}

// PendingToolCall is an unsettled nested request of a waiting run.
type PendingToolCall struct {
	ID     string `json:"id"`
	Method string `json:"method"`
}

// Output is one item appended by text() or json().
type Output struct {
	Type  string          // "text" or "json"
	Text  string          // for text
	Value json.RawMessage // for json
}

// MarshalJSON writes {type:"text", text} or {type:"json", value}.
func (o Output) MarshalJSON() ([]byte, error) {
	if o.Type == "json" {
		return json.Marshal(struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		}{o.Type, o.Value})
	}
	return json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{o.Type, o.Text})
}

// Telemetry is attached to every result. It carries counts and tool names
// only: never inputs, values or secrets.
type Telemetry struct {
	CatalogSize   int                  `json:"catalogSize"`
	Sources       catalog.SourceCounts `json:"sources"`
	SearchCount   int64                `json:"searchCount"`
	DescribeCount int64                `json:"describeCount"`
	CallCount     int64                `json:"callCount"`
	VisibleTools  []string             `json:"visibleTools"`
	// RanAs is "typescript" when the cell ran as TypeScript though the
	// request named JavaScript or no language: a ts fence, or types in the
	// code (the source check's guess).
	RanAs string `json:"ranAs,omitempty"`
}

func (run *Run) telemetry() Telemetry {
	t := Telemetry{
		SearchCount:   run.searches.Load(),
		DescribeCount: run.describes.Load(),
		CallCount:     run.calls.Load(),
		VisibleTools:  []string{},
	}
	if run.tab.Catalog != nil {
		t.CatalogSize = run.tab.Catalog.Len()
		t.Sources = run.tab.Catalog.Sources()
	}
	for _, d := range run.visible {
		t.VisibleTools = append(t.VisibleTools, d.Name)
	}
	return t
}

// failed builds a failed result. The message is bounded by maxOutputBytes
// like every other part of a result: a guest can throw a huge string.
func (run *Run) failed(code abi.ErrorCode, reason Reason, msg string) Result {
	msg = bridge.Truncate(msg, run.rt.bounds.MaxOutputBytes)
	return Result{Status: StatusFailed, Code: code, Reason: reason, Error: msg, Telemetry: run.telemetry()}
}

// wellFormed replaces the escapes of lone surrogates in JSON text, which
// JSON.stringify writes as \udXXX (a valid pair is written as UTF-8), with
// U+FFFD itself, as text() output and tool inputs get it, so strict JSON
// parsers accept every value and output item.
func wellFormed(js string) string {
	if !strings.Contains(js, `\ud`) && !strings.Contains(js, `\uD`) {
		return js
	}
	var b strings.Builder
	for i := 0; i < len(js); i++ {
		if js[i] != '\\' || i+1 >= len(js) {
			b.WriteByte(js[i])
			continue
		}
		if js[i+1] == 'u' && i+6 <= len(js) {
			if v, err := strconv.ParseUint(js[i+2:i+6], 16, 16); err == nil && v >= 0xd800 && v <= 0xdfff {
				b.WriteString("\uFFFD")
				i += 5
				continue
			}
		}
		b.WriteString(js[i : i+2]) // any other escape, kept whole
		i++
	}
	return b.String()
}

// Messages of the run lifecycle, worded as OpenClaw's Code Mode words them.
const (
	msgDisabled       = "code mode is disabled."
	msgTimeout        = "code mode timeout exceeded"
	msgSourceTimeout  = "code mode timeout exceeded while checking the cell's source (the TypeScript transform or the parse): simplify or split it."
	msgAborted        = "code mode execution aborted"
	msgMemory         = "code mode memory limit exceeded"
	msgOutputLimit    = "code mode output limit exceeded"
	msgTooDeep        = "code mode value is nested too deeply to encode as JSON (more than 10000 levels); return a flatter value."
	msgSnapshotLimit  = "code mode snapshot limit exceeded"
	msgTooManyPending = "too many pending code mode tool calls"
	msgNoHostWork     = "code mode promise is pending without host work"
)

// failure maps an engine failure onto a result.
func (run *Run) failure(f *abi.Failure) Result {
	switch f.Kind {
	case abi.FailureTimeout:
		return run.failed(abi.CodeTimeout, "", msgTimeout)
	case abi.FailureAborted:
		return run.failed(abi.CodeAborted, "", msgAborted)
	case abi.FailureMemoryLimit:
		return run.failed(abi.CodeInternalError, ReasonMemoryLimit, msgMemory)
	case abi.FailureTrap, abi.FailureUnavailable:
		return run.failed(abi.CodeRuntimeUnavailable, "", "code mode runtime unavailable: "+f.Message)
	case abi.FailureSnapshot:
		return run.failed(abi.CodeInternalError, ReasonSnapshotRestore, "code mode snapshot restore failed: "+f.Message)
	}
	msg := f.Error()
	if f.Stack != "" {
		msg += "\n" + f.Stack
	}
	return run.failed(abi.CodeInternalError, "", msg)
}
