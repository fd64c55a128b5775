// Package gojaengine is the differential oracle: the codemode bridge ABI
// implemented on the pure-Go interpreter github.com/dop251/goja.
//
// It evaluates the same engine-level bridge ([abi.BridgeJS]) and applies the
// same value rules as the production engine, so a cell should mean the same
// thing on both. It exists for tests only: nothing outside _test.go files may
// import it, so it is never linked into the codemode binary.
//
// What it cannot do it declares through [Engine.Capabilities]: it has no
// snapshots (goja cannot serialise a VM) and no memory limit (goja allocates
// on the Go heap). Deadlines and aborts stop the guest through goja's
// interrupt, and [abi.Limits.StackBytes] becomes a call-depth limit.
package gojaengine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/seed11a79d2d/codemode/abi"
)

// Options configure an [Engine]. A nil *Options means all defaults.
type Options struct {
	// Limits apply to cells whose own limits are zero. Only StackBytes is
	// enforced, as a call depth of StackBytes/FrameBytes. Default: 512 KiB,
	// like the production engine.
	Limits abi.Limits
	// FrameBytes converts a stack size into a call depth (default 128).
	FrameBytes uint32
	// PollInterval is how often [abi.Host.ShouldInterrupt] is polled while
	// guest code runs (default 1ms).
	PollInterval time.Duration
	// Now is the clock of Date; nil means time.Now. goja formats local time
	// in time.Local, so tests that compare with the production engine (which
	// runs in UTC) set time.Local to time.UTC.
	Now func() time.Time
	// Seed, when non-zero, makes Math.random deterministic; zero reseeds every
	// cell from a random source, as the production engine does.
	Seed uint64
}

const (
	defaultStack      = 512 << 10
	defaultFrameBytes = 128
	defaultPoll       = time.Millisecond
)

// Engine makes goja cells. It is safe for concurrent use.
type Engine struct {
	opts Options

	mu     sync.Mutex
	closed bool
}

var _ abi.Engine = (*Engine)(nil)

// New returns an engine. It never fails; the error keeps the constructor
// shape of the other engines.
func New(opts *Options) (*Engine, error) {
	e := &Engine{}
	if opts != nil {
		e.opts = *opts
	}
	if e.opts.Limits.StackBytes == 0 {
		e.opts.Limits.StackBytes = defaultStack
	}
	if e.opts.FrameBytes == 0 {
		e.opts.FrameBytes = defaultFrameBytes
	}
	if e.opts.PollInterval <= 0 {
		e.opts.PollInterval = defaultPoll
	}
	return e, nil
}

// Capabilities implements [abi.Engine]: interrupt and stack limit only.
func (e *Engine) Capabilities() abi.Capabilities {
	return abi.Capabilities{StackLimit: true, Interrupt: true}
}

// Close implements [abi.Engine]. Cells hold no shared resources; a closed
// engine refuses new cells.
func (e *Engine) Close(context.Context) error {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	return nil
}

// Restore implements [abi.Engine]; goja cannot restore snapshots.
func (e *Engine) Restore(context.Context, []byte, abi.Limits, abi.Host) (abi.Cell, error) {
	return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "goja engine cannot restore snapshots"}
}

// NewCell implements [abi.Engine]: a fresh runtime with the bridge loaded.
func (e *Engine) NewCell(_ context.Context, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "goja engine is closed"}
	}
	if limits.StackBytes == 0 {
		limits.StackBytes = e.opts.Limits.StackBytes
	}
	rt := goja.New()
	rt.SetMaxCallStackSize(int(max(limits.StackBytes/e.opts.FrameBytes, 16)))
	if e.opts.Now != nil {
		rt.SetTimeSource(e.opts.Now)
	}
	c := &cell{eng: e, rt: rt, host: host}
	// Captured before any guest code runs, like the intrinsic QuickJS uses.
	c.errorCtor = rt.Get("Error")
	g := rt.GlobalObject()
	if err := g.Set(abi.HostRequestName, c.hostRequest); err != nil {
		return nil, unavailable("install host request", err)
	}
	if err := g.Set(abi.HostEmitName, c.hostEmit); err != nil {
		return nil, unavailable("install host emit", err)
	}
	bridge, err := rt.RunScript("bridge.js", abi.BridgeJS)
	if err != nil {
		return nil, unavailable("evaluate bridge", err)
	}
	obj := bridge.ToObject(rt)
	for _, f := range []struct {
		name string
		fn   *goja.Callable
	}{{"settle", &c.settle}, {"encode", &c.encode}, {"describe", &c.describe}, {"reseed", &c.reseed}} {
		fn, ok := goja.AssertFunction(obj.Get(f.name))
		if !ok {
			return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "bridge lacks " + f.name}
		}
		*f.fn = fn
	}
	for _, sc := range abi.EnvScripts {
		if _, err := rt.RunScript(sc.Name, sc.Source); err != nil {
			return nil, unavailable("evaluate "+sc.Name, err)
		}
	}
	seed := e.opts.Seed
	if seed == 0 {
		seed = rand.Uint64() | 1
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	args := make([]goja.Value, abi.ReseedWords)
	for i := range args {
		args[i] = rt.ToValue(int32(r.Uint32()))
	}
	if _, err := c.reseed(goja.Undefined(), args...); err != nil {
		return nil, unavailable("reseed", err)
	}
	return c, nil
}

func unavailable(what string, err error) *abi.Failure {
	return &abi.Failure{Kind: abi.FailureUnavailable, Message: "goja: " + what + ": " + err.Error()}
}

// cell is one goja runtime. It is not safe for concurrent use.
type cell struct {
	eng  *Engine
	rt   *goja.Runtime
	host abi.Host

	errorCtor                        goja.Value
	settle, encode, describe, reseed goja.Callable
	result                           goja.Value // the cell's promise once Run has started
	ran, closed                      bool
	failed                           *abi.Failure
	interrupted                      abi.Interrupt // sticky, as in the production engine
}

var _ abi.Cell = (*cell)(nil)

// hostRequest is __cm_host_request(op, payload) -> ticket.
func (c *cell) hostRequest(call goja.FunctionCall) goja.Value {
	op, payload := call.Argument(0).String(), call.Argument(1).String()
	if c.host == nil {
		c.throw("the host is unavailable")
	}
	t, err := c.host.Request(op, payload)
	if err != nil {
		c.throw(err.Error())
	}
	return c.rt.ToValue(float64(t))
}

// hostEmit is __cm_host_emit(kind, payload); kind 1 is JSON, anything else text.
func (c *cell) hostEmit(call goja.FunctionCall) goja.Value {
	kind := abi.OutputText
	if call.Argument(0).String() == "1" {
		kind = abi.OutputJSON
	}
	payload := call.Argument(1).String()
	if c.host == nil {
		c.throw("the host is unavailable")
	}
	if err := c.host.Emit(kind, payload); err != nil {
		c.throw(err.Error())
	}
	return goja.Undefined()
}

// throw raises a plain Error in the guest; goja turns a panicked Value into
// a catchable exception.
func (c *cell) throw(msg string) {
	obj, err := c.rt.New(c.errorCtor, c.rt.ToValue(msg))
	if err != nil {
		panic(c.rt.NewGoError(errors.New(msg)))
	}
	panic(obj)
}

// Run implements [abi.Cell].
func (c *cell) Run(_ context.Context, source, filename string) abi.Step {
	return c.step(func() error {
		if c.ran {
			return &abi.Failure{Kind: abi.FailureUnavailable, Message: "cell already ran"}
		}
		c.ran = true
		v, err := c.rt.RunScript(filename, abi.WrapCell(source))
		c.result = v
		return err
	})
}

// Settle implements [abi.Cell].
func (c *cell) Settle(_ context.Context, ticket abi.Ticket, outcome abi.Outcome) abi.Step {
	return c.step(func() error {
		_, err := c.settle(goja.Undefined(), c.rt.ToValue(float64(ticket)), c.rt.ToValue(outcome.Rejected), c.rt.ToValue(outcome.Value))
		return err
	})
}

// Snapshot implements [abi.Cell]; goja cannot serialise a VM.
func (c *cell) Snapshot(context.Context) ([]byte, error) {
	return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "goja engine cannot snapshot cells"}
}

// Close implements [abi.Cell].
func (c *cell) Close(context.Context) error {
	c.closed = true
	c.host = nil
	return nil
}

// step runs guest code under the interrupt watcher (goja runs queued
// promise jobs before returning) and reports where the cell stands.
func (c *cell) step(op func() error) abi.Step {
	if c.failed != nil {
		return abi.Step{Status: abi.StepFailed, Failure: c.failed}
	}
	if c.closed {
		return c.fail(&abi.Failure{Kind: abi.FailureUnavailable, Message: "cell is closed"})
	}
	err := c.guest(op)
	var f *abi.Failure
	if errors.As(err, &f) {
		return c.fail(f)
	}
	if c.interrupted != abi.InterruptNone {
		return c.fail(c.interruptFailure())
	}
	if err != nil {
		return c.fail(c.failure(err))
	}
	return c.state()
}

// guest runs op while a watcher goroutine polls the host and interrupts
// goja when asked. The watcher is stopped before guest returns. It calls
// [abi.Host.ShouldInterrupt] from its own goroutine, so hosts used with this
// engine must make that method safe to call concurrently with the others.
func (c *cell) guest(op func() error) error {
	host := c.host
	if host == nil {
		return op()
	}
	var fired atomic.Uint32
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(c.eng.opts.PollInterval)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if r := host.ShouldInterrupt(); r != abi.InterruptNone {
					fired.Store(uint32(r))
					c.rt.Interrupt(r)
					return
				}
			}
		}
	}()
	err := op()
	close(stop)
	<-done
	var ie *goja.InterruptedError
	switch {
	case errors.As(err, &ie):
		c.interrupted = abi.Interrupt(fired.Load())
		if c.interrupted == abi.InterruptNone {
			c.interrupted = abi.InterruptDeadline
		}
	case fired.Load() != 0:
		// The request came after the guest had finished: goja did not see
		// it, and would otherwise stop the next Run at once.
		c.rt.ClearInterrupt()
	}
	return err
}

func (c *cell) fail(f *abi.Failure) abi.Step {
	c.failed = f
	return abi.Step{Status: abi.StepFailed, Failure: f}
}

func (c *cell) interruptFailure() *abi.Failure {
	if c.interrupted == abi.InterruptAbort {
		return &abi.Failure{Kind: abi.FailureAborted, Message: "interrupted: aborted"}
	}
	return &abi.Failure{Kind: abi.FailureTimeout, Message: "interrupted: deadline exceeded"}
}

// state reports the cell promise's state, like the production engine's drain.
func (c *cell) state() abi.Step {
	if o, ok := c.result.(*goja.Object); ok {
		if p, ok := o.Export().(*goja.Promise); ok {
			switch p.State() {
			case goja.PromiseStatePending:
				return abi.Step{Status: abi.StepPending}
			case goja.PromiseStateRejected:
				return c.fail(c.classify(p.Result()))
			default:
				return c.complete(p.Result())
			}
		}
	}
	// The source broke out of the wrapper: its value is the result.
	return c.complete(c.result)
}

// complete encodes the cell's value with the bridge's JSON value rule.
func (c *cell) complete(v goja.Value) abi.Step {
	if v == nil {
		v = goja.Undefined()
	}
	var s goja.Value
	err := c.guest(func() (err error) {
		s, err = c.encode(goja.Undefined(), v)
		return err
	})
	if c.interrupted != abi.InterruptNone {
		return c.fail(c.interruptFailure())
	}
	if err != nil {
		return c.fail(c.failure(err))
	}
	return abi.Step{Status: abi.StepCompleted, Value: s.String()}
}

// failure classifies an error returned by goja.
func (c *cell) failure(err error) *abi.Failure {
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		// goja's overflow is uncatchable; QuickJS throws this RangeError.
		var b bytes.Buffer
		for i, fr := range so.Stack() {
			if i == 8 {
				break
			}
			b.WriteString("    at ")
			fr.Write(&b)
			b.WriteByte('\n')
		}
		return &abi.Failure{Kind: abi.FailureStackOverflow, Name: "RangeError", Message: "Maximum call stack size exceeded", Stack: b.String()}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return c.classify(ex.Value())
	}
	return &abi.Failure{Kind: abi.FailureUnavailable, Message: "goja: " + err.Error()}
}

// classify describes a thrown or rejected guest value.
func (c *cell) classify(v goja.Value) *abi.Failure {
	if v == nil {
		v = goja.Undefined()
	}
	f := &abi.Failure{Kind: abi.FailureGuestException}
	var res goja.Value
	err := c.guest(func() (err error) {
		res, err = c.describe(goja.Undefined(), v)
		return err
	})
	if c.interrupted != abi.InterruptNone {
		return c.interruptFailure()
	}
	if err != nil {
		f.Message = "unprintable exception"
		return f
	}
	var d struct{ Name, Message, Stack string }
	if json.Unmarshal([]byte(res.String()), &d) != nil {
		f.Message = "unprintable exception"
		return f
	}
	f.Name, f.Message, f.Stack = d.Name, d.Message, d.Stack
	if f.Name == "RangeError" && strings.Contains(f.Message, "call stack") {
		f.Kind = abi.FailureStackOverflow
	}
	return f
}
