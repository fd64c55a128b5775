// Package conformance is one table of named cells, run against every engine
// that implements the bridge ABI (package abi).
//
// A [Case] is a cell body, optionally a scripted host (which tickets settle
// with what, in what order, when the host interrupts, how much output it
// takes) and the expected [Outcome] as JSON. [Exec] runs one case on an
// engine and normalises what happened; [Run] runs the whole table as subtests
// of a Go test; [Check] and [WriteReport] do the same for a command-line
// report. Rows that need a capability an engine lacks are skipped by that
// capability, never by the engine's name.
//
// Known, justified divergences of one engine from the table live in the
// committed file testdata/baseline.json, each with its reason and the exact
// outcome that engine gives instead; a divergence not listed there fails, and
// so does a listed one that no longer happens.
//
// The differential oracle (package gojaengine) is imported only by this
// package's tests.
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/seed11a79d2d/codemode/abi"
)

// Filename is the name every case's cell runs under; failure lines are read
// from stack frames that name it.
const Filename = "cell.js"

// Messages of the scripted host's refusals.
const (
	// RefusedMessage is the error of a request whose op is "refuse".
	RefusedMessage = "code mode request refused"
	// OutputLimitMessage is the error of an emit past [Case.OutputLimit].
	OutputLimitMessage = "code mode output limit exceeded"
)

// Case is one named row of the table.
type Case struct {
	Name string
	// Source is the cell body, run as filename [Filename].
	Source string
	// Script is what the host does after Run, in order.
	Script []Action
	// Needs lists the capabilities the row depends on; an engine lacking one
	// skips the row.
	Needs abi.Capabilities
	// Limits are the cell's limits; zero fields mean the engine's defaults.
	Limits abi.Limits
	// OutputLimit, when positive, is how many output items the host accepts;
	// further emits fail with [OutputLimitMessage].
	OutputLimit int
	// Interrupt, when set, is what the host's ShouldInterrupt answers once
	// InterruptAfter has passed since Run started.
	Interrupt      abi.Interrupt
	InterruptAfter time.Duration
	// Want is the expected [Outcome] as JSON. A failure message ending in
	// "*" matches by prefix; "requests" is compared only when present.
	Want string
}

// Action is one step of a scripted host; build it with [Resolve], [Reject],
// [SettleAll], [Snapshot] or [InterruptNow].
type Action struct {
	kind    actionKind
	ticket  abi.Ticket
	outcome abi.Outcome
	reason  abi.Interrupt
}

type actionKind uint8

const (
	actSettle actionKind = iota
	actSettleAll
	actSnapshot
	actInterrupt
)

// Resolve settles ticket with a JSON value.
func Resolve(ticket abi.Ticket, json string) Action {
	return Action{kind: actSettle, ticket: ticket, outcome: abi.Resolve(json)}
}

// Reject rejects ticket with a message.
func Reject(ticket abi.Ticket, message string) Action {
	return Action{kind: actSettle, ticket: ticket, outcome: abi.Reject(message)}
}

// SettleAll resolves every open ticket, oldest first, with its request's
// payload (which must be JSON), until none is open or the cell stops
// pending.
func SettleAll() Action { return Action{kind: actSettleAll} }

// Snapshot snapshots the cell, closes it and restores the image into a new
// cell that continues with the same host. Rows using it need
// [abi.Capabilities.Snapshot].
func Snapshot() Action { return Action{kind: actSnapshot} }

// InterruptNow makes the host ask for an interrupt from now on.
func InterruptNow(reason abi.Interrupt) Action { return Action{kind: actInterrupt, reason: reason} }

// Outcome is what a case did, normalised so that engines compare as JSON.
type Outcome struct {
	// Status is "completed", "pending" or "failed".
	Status string `json:"status"`
	// Value is the completed cell's value as JSON text.
	Value   json.RawMessage `json:"value,omitempty"`
	Failure *Failure        `json:"failure,omitempty"`
	// Output items are "text:payload" or "json:payload", in order.
	Output []string `json:"output,omitempty"`
	// Requests are "op payload", in order.
	Requests []string `json:"requests,omitempty"`
	// Steps lists every step's status, only when one before the last was
	// not pending (a cell that finished while the script went on).
	Steps []string `json:"steps,omitempty"`
}

// Failure is a normalised [abi.Failure]; the stack is reduced to the line of
// the first frame in the cell.
type Failure struct {
	Kind    string `json:"kind"`
	Name    string `json:"name,omitempty"`
	Message string `json:"message,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// Missing names the capabilities in needs that have lacks.
func Missing(has, needs abi.Capabilities) []string {
	var out []string
	for _, c := range []struct {
		name       string
		need, have bool
	}{
		{"snapshot", needs.Snapshot, has.Snapshot},
		{"memory-limit", needs.MemoryLimit, has.MemoryLimit},
		{"stack-limit", needs.StackLimit, has.StackLimit},
		{"interrupt", needs.Interrupt, has.Interrupt},
	} {
		if c.need && !c.have {
			out = append(out, c.name)
		}
	}
	return out
}

// Exec runs one case on eng. Call it only when [Missing] is empty. The error
// is for the harness (a cell that could not be made); everything the cell
// did is in the outcome.
func Exec(ctx context.Context, eng abi.Engine, c Case) (Outcome, error) {
	h := &scriptHost{limit: c.OutputLimit, reason: c.Interrupt, after: c.InterruptAfter}
	cell, err := eng.NewCell(ctx, c.Limits, h)
	if err != nil {
		return Outcome{}, fmt.Errorf("new cell: %w", err)
	}
	defer func() { cell.Close(ctx) }()
	h.start()
	step := cell.Run(ctx, c.Source, Filename)
	steps := []abi.Step{step}
	for _, a := range c.Script {
		if step.Status == abi.StepFailed {
			break
		}
		switch a.kind {
		case actSettle:
			step = cell.Settle(ctx, a.ticket, a.outcome)
			steps = append(steps, step)
		case actSettleAll:
			for step.Status == abi.StepPending {
				t, payload, ok := h.nextOpen()
				if !ok {
					break
				}
				step = cell.Settle(ctx, t, abi.Resolve(payload))
				steps = append(steps, step)
			}
		case actSnapshot:
			img, err := cell.Snapshot(ctx)
			if err != nil {
				return Outcome{}, fmt.Errorf("snapshot: %w", err)
			}
			cell.Close(ctx)
			if cell, err = eng.Restore(ctx, img, c.Limits, h); err != nil {
				return Outcome{}, fmt.Errorf("restore: %w", err)
			}
		case actInterrupt:
			h.interruptNow(a.reason)
		}
	}
	return h.outcome(steps), nil
}

// scriptHost is the scripted host. Engines may poll ShouldInterrupt from
// another goroutine, so every field is guarded.
type scriptHost struct {
	limit  int
	reason abi.Interrupt
	after  time.Duration

	mu      sync.Mutex
	started time.Time
	now     abi.Interrupt
	tickets []string // op payload, ticket i+1
	settled map[abi.Ticket]bool
	output  []string
}

var _ abi.Host = (*scriptHost)(nil)

func (h *scriptHost) start() {
	h.mu.Lock()
	h.started = time.Now()
	h.mu.Unlock()
}

func (h *scriptHost) interruptNow(r abi.Interrupt) {
	h.mu.Lock()
	h.now = r
	h.mu.Unlock()
}

func (h *scriptHost) Request(op, payload string) (abi.Ticket, error) {
	if op == "refuse" {
		return 0, fmt.Errorf("%s", RefusedMessage)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tickets = append(h.tickets, op+" "+payload)
	return abi.Ticket(len(h.tickets)), nil
}

func (h *scriptHost) Emit(kind abi.OutputKind, payload string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limit > 0 && len(h.output) >= h.limit {
		return fmt.Errorf("%s", OutputLimitMessage)
	}
	h.output = append(h.output, kind.String()+":"+payload)
	return nil
}

func (h *scriptHost) ShouldInterrupt() abi.Interrupt {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.now != abi.InterruptNone {
		return h.now
	}
	if h.reason != abi.InterruptNone && !h.started.IsZero() && time.Since(h.started) >= h.after {
		return h.reason
	}
	return abi.InterruptNone
}

// nextOpen returns the oldest unsettled ticket and its payload.
func (h *scriptHost) nextOpen() (abi.Ticket, string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.settled == nil {
		h.settled = map[abi.Ticket]bool{}
	}
	for i, r := range h.tickets {
		t := abi.Ticket(i + 1)
		if !h.settled[t] {
			h.settled[t] = true
			_, payload, _ := strings.Cut(r, " ")
			return t, payload, true
		}
	}
	return 0, "", false
}

func (h *scriptHost) outcome(steps []abi.Step) Outcome {
	h.mu.Lock()
	defer h.mu.Unlock()
	last := steps[len(steps)-1]
	o := Outcome{Status: last.Status.String(), Output: visibleAll(h.output), Requests: visibleAll(h.tickets)}
	for _, s := range steps[:len(steps)-1] {
		if s.Status != abi.StepPending {
			for _, s := range steps {
				o.Steps = append(o.Steps, s.Status.String())
			}
			break
		}
	}
	switch last.Status {
	case abi.StepCompleted:
		o.Value = rawJSON(last.Value)
	case abi.StepFailed:
		o.Failure = normalFailure(last.Failure)
	}
	return o
}

// rawJSON compacts JSON text; text that is not JSON is kept as a JSON string
// marked as such, so that the difference shows.
func rawJSON(s string) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		q, _ := json.Marshal("not JSON: " + s)
		return q
	}
	return json.RawMessage(b.Bytes())
}

func normalFailure(f *abi.Failure) *Failure {
	if f == nil {
		return &Failure{Kind: "missing"}
	}
	return &Failure{Kind: f.Kind.String(), Name: visible(f.Name), Message: visible(f.Message), Line: stackLine(f.Stack)}
}

// visible spells each byte of s that is not valid UTF-8 as \xNN, so that
// such strings survive JSON and differ visibly from U+FFFD.
func visible(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "\\x%02x", s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func visibleAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = visible(s)
	}
	return out
}

// stackLine is the line number of the first stack frame in [Filename].
func stackLine(stack string) int {
	key := Filename + ":"
	i := strings.Index(stack, key)
	if i < 0 {
		return 0
	}
	n := 0
	for _, r := range stack[i+len(key):] {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}
