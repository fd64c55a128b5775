package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// cell is one guest VM on a pooled instance. It is not safe for concurrent
// use.
type cell struct {
	eng    *Engine
	in     *Instance
	limits abi.Limits
	result uint32 // the cell promise's box; it lives in the image
	failed *abi.Failure
}

var _ abi.Cell = (*cell)(nil)

// NewCell implements [abi.Engine]. The cell starts at the template state.
func (e *Engine) NewCell(ctx context.Context, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	in, err := e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return e.start(in, limits, host, 0)
}

// start prepares an instance at a given state for a new owner.
func (e *Engine) start(in *Instance, limits abi.Limits, host abi.Host, result uint32) (c *cell, err error) {
	c = &cell{eng: e, in: in, limits: e.limits(limits), result: result}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(trap); !ok {
				panic(r)
			}
			e.release(in)
			c, err = nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "prepare quickjs-wasi instance: " + fmt.Sprint(r.(trap).err)}
		}
	}()
	in.applyLimits(c.limits)
	in.reseed()
	in.host = host
	return c, nil
}

// Run implements [abi.Cell].
func (c *cell) Run(ctx context.Context, source, filename string) abi.Step {
	return c.guard(ctx, func() abi.Step {
		if c.result != 0 {
			return c.fail(&abi.Failure{Kind: abi.FailureUnavailable, Message: "cell already ran"})
		}
		res, exc := c.in.eval(abi.WrapCell(source), filename)
		if exc != 0 {
			return c.fail(c.in.failure(exc))
		}
		c.result = res
		return c.drain()
	})
}

// Settle implements [abi.Cell].
func (c *cell) Settle(ctx context.Context, ticket abi.Ticket, outcome abi.Outcome) abi.Step {
	return c.guard(ctx, func() abi.Step {
		in, t := c.in, c.eng.tmpl
		rejected := t.falseBox
		if outcome.Rejected {
			rejected = t.trueBox
		}
		tb := in.newNumber(float64(ticket))
		vb := in.newString(outcome.Value)
		res, exc := in.callFn(t.settle, tb, rejected, vb)
		in.freeValue(tb)
		in.freeValue(vb)
		in.freeValue(res)
		if exc != 0 { // JSON.parse of a bad value, or an interrupt
			return c.fail(in.failure(exc))
		}
		return c.drain()
	})
}

// guard runs one operation: it refuses a finished cell, arms the hard stop
// at the deadline plus the grace period (the runtime's own stop, and the
// tick every guest loop makes), and turns a wasm trap into a failed step
// that retires the instance.
func (c *cell) guard(ctx context.Context, op func() abi.Step) (step abi.Step) {
	if c.failed != nil {
		return abi.Step{Status: abi.StepFailed, Failure: c.failed}
	}
	if c.in == nil {
		return c.fail(&abi.Failure{Kind: abi.FailureUnavailable, Message: "cell is closed"})
	}
	in, cfg := c.in, &c.eng.cfg
	var at time.Time
	if d, ok := ctx.Deadline(); ok {
		at = d.Add(cfg.StopGrace)
		in.stopAt = at.UnixNano()
	}
	if in.stopper != nil {
		in.stopper.StopAt(at)
	}
	defer func() {
		in.stopAt = 0
		if in.stopper != nil {
			in.stopper.StopAt(time.Time{})
		}
		if r := recover(); r != nil {
			t, ok := r.(trap)
			if !ok {
				panic(r)
			}
			in.dead = true
			if errors.Is(t.err, ErrStopped) {
				c.eng.noteStop()
				step = c.fail(&abi.Failure{Kind: abi.FailureTimeout, Message: "interrupted: deadline exceeded; the guest was stopped"})
				return
			}
			if strings.Contains(t.err.Error(), "stack overflow") {
				// The runtime's native stack ran out before QuickJS's own
				// check, which sees only the C stack in linear memory (deep
				// JSON.parse, toJSON recursion on wasmtime's fixed stack).
				step = c.fail(&abi.Failure{Kind: abi.FailureStackOverflow, Name: "RangeError", Message: "Maximum call stack size exceeded"})
				return
			}
			step = c.fail(&abi.Failure{Kind: abi.FailureTrap, Message: "quickjs-wasi trapped: " + t.err.Error()})
		}
	}()
	return op()
}

func (c *cell) fail(f *abi.Failure) abi.Step {
	c.failed = f
	return abi.Step{Status: abi.StepFailed, Failure: f}
}

// drain runs pending jobs, then reports the cell promise's state.
func (c *cell) drain() abi.Step {
	in := c.in
	for in.interrupted == abi.InterruptNone {
		rc := int32(in.call(fnExecutePendingJob))
		if rc == 0 {
			break
		}
		if rc < 0 {
			return c.fail(in.failure(in.call(fnGetException)))
		}
	}
	if in.interrupted != abi.InterruptNone { // even if the guest caught the interrupt
		return c.fail(in.interruptFailure())
	}
	if in.outOfMemory {
		return c.fail(&abi.Failure{Kind: abi.FailureMemoryLimit, Name: "InternalError", Message: "out of memory"})
	}
	switch int32(in.call(fnPromiseState, uint64(c.result))) {
	case 0:
		return abi.Step{Status: abi.StepPending}
	case 1:
		v := in.call(fnPromiseResult, uint64(c.result))
		defer in.freeValue(v)
		return c.complete(v)
	case 2:
		return c.fail(in.failure(in.call(fnPromiseResult, uint64(c.result))))
	default: // the source broke out of the wrapper: its value is the result
		return c.complete(c.result)
	}
}

// complete encodes the cell's value with the bridge's JSON value rule.
func (c *cell) complete(v uint32) abi.Step {
	in := c.in
	res, exc := in.callFn(c.eng.tmpl.encode, v)
	if exc != 0 {
		return c.fail(in.failure(exc))
	}
	s, ok := in.goString(res)
	in.freeValue(res)
	if !ok {
		return c.fail(in.failure(in.call(fnGetException)))
	}
	if in.interrupted != abi.InterruptNone {
		return c.fail(in.interruptFailure())
	}
	return abi.Step{Status: abi.StepCompleted, Value: s}
}

func (in *Instance) interruptFailure() *abi.Failure {
	if in.interrupted == abi.InterruptAbort {
		return &abi.Failure{Kind: abi.FailureAborted, Message: "interrupted: aborted"}
	}
	return &abi.Failure{Kind: abi.FailureTimeout, Message: "interrupted: deadline exceeded"}
}

// failure classifies and frees an owned exception or rejection value.
func (in *Instance) failure(exc uint32) *abi.Failure {
	defer in.freeValue(exc)
	if in.interrupted != abi.InterruptNone {
		return in.interruptFailure()
	}
	if in.call(fnIsUncatchable, uint64(exc)) != 0 {
		// QuickJS raises only interrupts and out-of-memory as uncatchable.
		return &abi.Failure{Kind: abi.FailureMemoryLimit, Name: "InternalError", Message: "out of memory"}
	}
	f := &abi.Failure{Kind: abi.FailureGuestException}
	res, exc2 := in.callFn(in.eng.tmpl.describe, exc)
	if exc2 != 0 {
		in.freeValue(exc2)
		if in.interrupted != abi.InterruptNone {
			return in.interruptFailure()
		}
		f.Message = "unprintable exception"
		return f
	}
	s, _ := in.goString(res)
	in.freeValue(res)
	var d struct{ Name, Message, Stack string }
	if json.Unmarshal([]byte(s), &d) != nil {
		f.Message = "unprintable exception"
		return f
	}
	f.Name, f.Message, f.Stack = d.Name, d.Message, d.Stack
	switch {
	case f.Name == "RangeError" && strings.Contains(f.Message, "call stack"):
		f.Kind = abi.FailureStackOverflow
	case f.Name == "InternalError" && f.Message == "out of memory":
		f.Kind = abi.FailureMemoryLimit
	}
	return f
}

// Close implements [abi.Cell]: the instance is reset and pooled, or dropped.
func (c *cell) Close(context.Context) error {
	if c.in == nil {
		return nil
	}
	in := c.in
	c.in = nil
	c.eng.release(in)
	return nil
}
