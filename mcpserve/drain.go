package mcpserve

import (
	"context"
	"errors"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
)

// Draining, when Serve's context ends over HTTP: /readyz fails at once, so
// a load balancer stops sending work; a new exec, wait or tool_search_code
// gets a busy failure that says to call again (another replica, or this
// one restarted, takes it: a parked run is in the run store); the legs in
// flight get Options.Drain to finish (a cell at its deadline parks, into
// the run store when there is one); those still running then fail with
// msgDrained, their answers are sent, and the listener closes.

// msgDraining is a refused leg's error.
const msgDraining = "code mode replica is shutting down and takes no new cells: call again in a few seconds, another replica (or this one restarted) will answer; a parked run is kept and can be waited on there."

// errDrained ends the legs still running at the drain deadline, and
// msgDrained is their error.
var errDrained = errors.New("drain deadline passed")

const msgDrained = "code mode replica shut down before the cell finished: it ran past the drain deadline of the replica's shutdown. Its nested calls so far took effect; run it again if that is safe."

// sendGrace is how long the failed legs' answers get to go out before the
// listener closes.
const sendGrace = 2 * time.Second

// refuseDraining is the busy result of a leg that started during a drain.
func refuseDraining() host.Result {
	return host.Result{Status: host.StatusFailed, Code: abi.CodeRuntimeUnavailable, Reason: host.ReasonBusy, Error: msgDraining}
}

// legContext is ctx, ended with errDrained when the drain deadline passes.
func (s *service) legContext(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(s.drained, func() { cancel(errDrained) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

// drainedResult is r with the drain's message when the drain deadline
// aborted its cell.
func drainedResult(ctx context.Context, r host.Result) host.Result {
	if r.Status == host.StatusFailed && r.Code == abi.CodeAborted && errors.Is(context.Cause(ctx), errDrained) {
		r.Code, r.Error = abi.CodeRuntimeUnavailable, msgDrained
	}
	return r
}

// drain runs the drain, then returns for the listener to close: legs in
// flight get drain to finish, then are ended.
func (s *service) drain(drain time.Duration) {
	s.draining.Store(true)
	s.logger.Info("draining: not ready, refusing new cells", "drain", drain.String(), "in_flight", s.inflight.Load())
	deadline := time.Now().Add(drain)
	for s.inflight.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := s.inflight.Load(); n > 0 {
		s.logger.Warn("drain deadline passed: failing the cells still running", "in_flight", n)
		s.endLegs()
		grace := time.Now().Add(sendGrace)
		for s.inflight.Load() > 0 && time.Now().Before(grace) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}
