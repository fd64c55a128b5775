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
	if len(st.timers) >= maxPendingTimers {
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

// clearTimer answers a "timer_clear" request at once: the timer's own ticket
// and the clear's ticket both settle without waiting, so a cleared timer is
// no longer pending work.
func (st *state) clearTimer(payload string) (abi.Ticket, error) {
	id, _, err := parseTimer(payload)
	if err != nil {
		return 0, err
	}
	if h := st.timers[id]; h != nil {
		delete(st.timers, id)
		if h.settle() {
			st.ready = append(st.ready, settled{h.ticket, abi.Resolve("null")})
		}
	}
	st.next++
	st.pending[st.next] = &pendingCall{method: "timer_clear", kind: kindLocal}
	st.ready = append(st.ready, settled{st.next, abi.Resolve("null")})
	return st.next, nil
}
