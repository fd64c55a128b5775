package host

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// Wait resumes a waiting run: it waits (within the timeout) for the run's
// pending calls, restores its snapshot, delivers the results in completion
// order and continues the cell. The result holds only new output.
func (run *Run) Wait(ctx context.Context, args json.RawMessage) Result {
	var in struct {
		RunID *string `json:"runId"`
	}
	if json.Unmarshal(args, &in) != nil || in.RunID == nil || strings.TrimSpace(*in.RunID) == "" {
		return run.failed(abi.CodeInvalidInput, "", "runId must be a non-empty string.")
	}
	if run.rt.runs != nil {
		return run.waitShared(ctx, *in.RunID)
	}
	st, err := run.rt.store.take(*in.RunID, run.opts.Scope)
	if err != nil {
		return run.failed(abi.CodeInvalidInput, "", err.Error())
	}
	owner := st.run
	st.follow(run)
	st.abort, st.deadline = ctx, time.Now().Add(owner.rt.bounds.Timeout)
	return st.bounded(func() Result { return owner.waitLeg(st.engineCtx(ctx), st) })
}

// waitLeg collects the run's pending calls, restores its snapshot and
// continues the cell.
func (run *Run) waitLeg(ctx context.Context, st *state) Result {
	for t, pc := range st.pending { // a restart-safe run's calls start now
		if pc.deferred {
			st.start(t, pc)
		}
	}
	ok, err := st.collect(ctx)
	if err != nil {
		return st.finish(run.failed(abi.CodeInternalError, ReasonLost, err.Error()))
	}
	if !ok {
		if ctx.Err() != nil {
			return st.finish(run.failed(abi.CodeAborted, "", msgAborted))
		}
		return st.release(ctx)
	}
	release, ok := run.admit(ctx, st.deadline)
	if !ok { // it stays parked for the next wait
		if ctx.Err() != nil {
			return st.finish(run.failed(abi.CodeAborted, "", msgAborted))
		}
		return st.release(ctx)
	}
	defer release()
	cell, err := run.rt.engine.Restore(ctx, st.image, run.limits(), st)
	if err != nil {
		var f *abi.Failure
		if ok := asFailure(err, &f); ok {
			return st.finish(run.failure(f))
		}
		return st.finish(run.failed(abi.CodeInternalError, ReasonSnapshotRestore, err.Error()))
	}
	defer cell.Close(ctx)
	run.rt.store.remove(st) // it is parked again if it suspends again
	// Yields settle now; then the calls in the order they completed.
	step := abi.Step{Status: abi.StepPending}
	for t, pc := range st.pending {
		if pc.kind == kindYield && step.Status == abi.StepPending {
			step = st.deliver(ctx, cell, settled{t, abi.Resolve("null")})
		}
	}
	return st.drive(ctx, cell, step)
}

// collect waits until the run can resume, leaving enough of the budget to
// run it: min(250ms, timeout/2). It can once every pending call has
// completed and there is something to deliver: a yield, or a settlement. A
// timer is waited for only when nothing else is pending (a cell that sleeps);
// one still pending beside calls or a yield keeps running while the cell does.
//
// The outcomes of calls that run elsewhere (a run resumed from a store.Runs)
// come from the store, which it polls; it fails when such a call's process
// is gone.
func (st *state) collect(ctx context.Context) (bool, error) {
	budget := st.run.rt.resumeBudget()
	poll, lastAlive := pollFirst, time.Time{}
	for !st.resumable() {
		left := time.Until(st.deadline) - budget
		if left <= 0 {
			return false, nil
		}
		wait := time.NewTimer(left)
		var tick <-chan time.Time
		if len(st.remoteCalls()) > 0 {
			tick = time.After(poll)
			poll = min(2*poll, pollMax)
		}
		select {
		case s := <-st.done:
			st.ready = append(st.ready, s)
		case <-tick:
			check := time.Since(lastAlive) > replicaBeat
			if check {
				lastAlive = time.Now()
			}
			if err := st.pollRemote(ctx, check); err != nil {
				wait.Stop()
				return false, err
			}
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return false, nil
		}
		wait.Stop()
	}
	return time.Until(st.deadline) >= budget, nil
}

// release leaves a run that a wait could not resume parked for the next
// wait, and returns its waiting result.
func (st *state) release(ctx context.Context) Result {
	if st.run.rt.runs != nil {
		return st.parkShared(context.WithoutCancel(ctx))
	}
	st.run.rt.store.release(st)
	return st.withOutput(st.waiting())
}

// resumeBudget is the least time a leg must have left to resume a cell:
// min(250ms, max(1ms, timeout/2)).
func (r *Runtime) resumeBudget() time.Duration {
	return min(250*time.Millisecond, max(time.Millisecond, r.bounds.Timeout/2))
}

func (st *state) resumable() bool {
	collected := make(map[abi.Ticket]bool, len(st.ready))
	for _, s := range st.ready {
		collected[s.ticket] = true
	}
	for t, pc := range st.pending {
		if pc.kind == kindCall && !collected[t] {
			return false
		}
	}
	return len(st.ready) > 0 || st.hasYield()
}

func asFailure(err error, f **abi.Failure) bool {
	x, ok := err.(*abi.Failure)
	*f = x
	return ok
}
