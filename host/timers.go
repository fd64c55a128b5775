package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
)

// maxPendingTimers bounds a run's pending setTimeout and setInterval timers.
// They do not count against maxPendingToolCalls: a timer holds no worker and
// no downstream connection, only a Go timer, and a cell that polls with an
// interval while its calls are in flight should not lose a call slot to it.
const maxPendingTimers = 256

// hostTimer is one pending guest timer: the ticket of its "timer" request,
// settled when it is due, or at once when the guest clears it.
type hostTimer struct {
	id     int64 // the guest's timer id
	ticket abi.Ticket
	delay  time.Duration
	due    time.Time // once armed

	mu        sync.Mutex
	settled   bool
	t         *time.Timer
	stopOnEnd func() bool
}

// settle claims the timer's one settlement: the first of firing, clearing and
// the run's end wins, and it stops the others.
func (h *hostTimer) settle() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.settled {
		return false
	}
	h.settled = true
	if h.t != nil {
		h.t.Stop()
	}
	if h.stopOnEnd != nil {
		h.stopOnEnd()
	}
	return true
}

func parseTimer(payload string) (id int64, ms float64, err error) {
	var a struct {
		ID *float64 `json:"id"`
		MS float64  `json:"ms"`
	}
	if json.Unmarshal([]byte(payload), &a) != nil || a.ID == nil || *a.ID != math.Trunc(*a.ID) || math.Abs(*a.ID) > 1<<53 {
		return 0, 0, errors.New("invalid timer request")
	}
	return int64(*a.ID), a.MS, nil
}

// newTimer registers the timer of a "timer" request; start arms it.
func (st *state) newTimer(t abi.Ticket, payload string) (*hostTimer, error) {
	if st.pendingTimers() >= maxPendingTimers {
		return nil, fmt.Errorf("too many pending timers (%d): clear some, or await them before starting more", maxPendingTimers)
	}
	id, ms, err := parseTimer(payload)
	if err != nil {
		return nil, err
	}
	if _, dup := st.timers[id]; dup {
		return nil, errors.New("invalid timer request: the id is pending")
	}
	ms = min(max(ms, 0), math.MaxInt32) // what setTimeout accepts
	h := &hostTimer{id: id, ticket: t, delay: time.Duration(ms * float64(time.Millisecond))}
	st.timers[id] = h
	return h, nil
}

// armTimer starts a timer's clock. It keeps running while the run is parked,
// like a nested call; the run's end stops it.
func (st *state) armTimer(h *hostTimer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.settled {
		return
	}
	t, done, calls := h.ticket, st.done, st.calls
	h.due = time.Now().Add(h.delay)
	h.t = time.AfterFunc(h.delay, func() {
		if h.settle() {
			select {
			case done <- settled{t, abi.Resolve("null")}:
			case <-calls.Done():
			}
		}
	})
	h.stopOnEnd = context.AfterFunc(calls, func() { h.settle() })
}

// clearTimer answers a "timer_clear" request. A timer that had not fired is
// gone at once: no settlement is left to wait for, so it is no longer
// pending work and holds no host memory (its promise stays unsettled in the
// VM, where nothing awaits it). One that fired already is delivered as usual
// and the guest skips its callback. The clear's own ticket is never settled:
// the environment does not await it.
func (st *state) clearTimer(payload string) (abi.Ticket, error) {
	id, _, err := parseTimer(payload)
	if err != nil {
		return 0, err
	}
	if h := st.timers[id]; h != nil {
		delete(st.timers, id)
		if h.settle() {
			delete(st.pending, h.ticket)
		}
	}
	st.next++
	return st.next, nil
}

// pendingTimers counts timers whose settlement is not yet delivered, fired
// or not: the bound on them is what keeps the run's done channel from
// filling, so a timer cleared after it fired counts until it is delivered.
func (st *state) pendingTimers() int { return st.pendingOf(kindTimer) }

// endTimers ends every pending timer once the cell has returned: none may
// fire into a finished cell, or keep it alive beside calls still in flight.
// Settlements already sent are dropped when they arrive.
func (st *state) endTimers() {
	if st.returned {
		return
	}
	st.returned = true
	for t, pc := range st.pending {
		if pc.kind == kindTimer {
			pc.timer.settle()
			delete(st.pending, t)
		}
	}
	clear(st.timers)
	kept := st.ready[:0]
	for _, s := range st.ready {
		if st.pending[s.ticket] != nil {
			kept = append(kept, s)
		}
	}
	st.ready = kept
}

// refuseTimer answers a timer asked for after the cell returned (from a
// call's callback): its promise rejects at once, which the environment's
// setTimeout takes as "never fire".
func (st *state) refuseTimer() abi.Ticket {
	st.next++
	st.pending[st.next] = &pendingCall{op: bridge.Timer, method: bridge.Timer.String(), kind: kindLocal}
	st.ready = append(st.ready, settled{st.next, abi.Reject("the cell has returned")})
	return st.next
}
