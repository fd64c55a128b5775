package host

import (
	"context"
	"fmt"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// The outcome of a parked run's call reaches a store.Runs that may stall (a
// paused or failing-over Redis). A lost write would leave the run waiting on
// a call that finished, answering `waiting` until its TTL; so the write is
// retried a few times, and when the store stays away the run is marked
// failed instead, and its next wait says why.

// failedTicket is the ticket under which Settle records that the run failed
// (no call has ticket 0): its outcome's Value is the reason, for the model.
const failedTicket abi.Ticket = 0

// settleAttempts writes of an outcome, settleBackoff apart at first and
// doubling, each given settleTimeout (a store may bound itself tighter):
// about two seconds of backoff, so a Redis that comes back within seconds
// loses nothing.
const (
	settleAttempts = 4
	settleBackoff  = 250 * time.Millisecond
	settleTimeout  = 5 * time.Second
	markBackoffMax = 4 * time.Second
)

// storeOutcome writes the outcome of one of the run's calls, retrying; it reports
// false when the run was marked failed or ended meanwhile: its other
// outcomes are not wanted any more.
func (st *state) storeOutcome(s settled, call string, expires time.Time) bool {
	var err error
	for i, pause := 0, settleBackoff; i < settleAttempts; i, pause = i+1, 2*pause {
		if err = st.settle(s.ticket, s.outcome); err == nil {
			return true
		}
		if i+1 < settleAttempts && !st.sleep(pause, expires) {
			return false
		}
	}
	st.run.rt.logger.Warn("code mode run store: a call's outcome was not stored; the run fails", "run", st.id, "err", err)
	msg := fmt.Sprintf("code mode run failed: the run store was unavailable when its nested call %s finished, so the call's outcome could not be stored (%v). Run the cell again.", call, err)
	st.markFailed(msg, expires)
	return false
}

// markFailed records that the run failed, retrying (backing off to
// markBackoffMax) until the store takes it, the run expires or it ends: a
// wait after the store is back then fails with msg rather than waiting for
// the outcome that was lost.
func (st *state) markFailed(msg string, expires time.Time) {
	for pause := settleBackoff; ; pause = min(2*pause, markBackoffMax) {
		err := st.settle(failedTicket, abi.Reject(msg))
		if err == nil {
			return
		}
		st.run.rt.logger.Warn("code mode run store: a failed run could not be marked failed", "run", st.id, "err", err)
		if !st.sleep(pause, expires) {
			return
		}
	}
}

func (st *state) settle(t abi.Ticket, o abi.Outcome) error {
	ctx, cancel := context.WithTimeout(st.calls, settleTimeout)
	defer cancel()
	return st.run.rt.runs.Settle(ctx, st.id, t, o)
}

// sleep waits d, and reports false if the run expires or ends first.
func (st *state) sleep(d time.Duration, expires time.Time) bool {
	if time.Now().Add(d).After(expires) {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-st.calls.Done():
		return false
	}
}

// failedInStore is the reason a run was marked failed in the store, if it
// was.
func failedInStore(outs map[abi.Ticket]abi.Outcome) (string, bool) {
	o, ok := outs[failedTicket]
	return o.Value, ok
}
