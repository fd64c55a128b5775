package host

import (
	"errors"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// The caps are store.MaxParkedRuns and a session's share of them,
// store.SessionRunsCap. A client that opens several sessions gets a share
// in each: the share is per session, not per client, and so the last of
// the slots are headroom that only light sessions may take (see parkRoom).
// A session's runs end with it (Runtime.EndSession), or with their TTL.

// parkRoom is the rule of the parked-run caps, for a new run of a session
// that holds session of the n runs parked: at most total, at most
// sessionCap per session, and the last quarter of total (never more than a
// session alone could not reach its cap without) only for sessions holding
// fewer than lightRuns(sessionCap). Four sessions at their cap then leave
// that headroom to the others, instead of filling the process.
func parkRoom(n, total, session, sessionCap int) error {
	headroom := max(0, min(total/4, total-sessionCap))
	switch {
	case n >= total:
		return store.ErrTooManyRuns
	case session >= sessionCap:
		return store.ErrTooManySessionRuns
	case n >= total-headroom && session >= lightRuns(sessionCap):
		return store.ErrTooManyRuns
	}
	return nil
}

// lightRuns is how many parked runs a session may hold and still take the
// headroom: a session that waits on one run while it starts another.
func lightRuns(sessionCap int) int { return max(1, sessionCap/8) }

// parkedRuns is the process-local map of parked runs.
type parkedRuns struct {
	mu         sync.Mutex
	runs       map[string]*state
	sessionCap int // store.SessionRunsCap, or Options.MaxSessionRuns
}

func newParkedRuns() *parkedRuns {
	return &parkedRuns{runs: map[string]*state{}, sessionCap: store.SessionRunsCap}
}

// park stores a run (or refreshes a run that is parked again) with a TTL.
func (s *parkedRuns) park(st *state, ttl time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.abandoned.Load() { // its caller already got a timeout
		return errors.New(msgTimeout)
	}
	if _, ok := s.runs[st.id]; !ok {
		if err := parkRoom(len(s.runs), store.MaxParkedRuns, s.sessionRuns(st.run.opts.Scope), s.sessionCap); err != nil {
			return err
		}
	}
	s.runs[st.id] = st
	st.resuming = false
	if st.expiry != nil {
		st.expiry.Stop()
	}
	st.expiresAt = time.Now().Add(ttl)
	s.arm(st)
	return nil
}

// arm (re)starts a parked run's TTL timer for what is left of its TTL.
func (s *parkedRuns) arm(st *state) {
	if st.expiry != nil {
		st.expiry.Stop()
	}
	id := st.id
	st.expiry = time.AfterFunc(max(0, time.Until(st.expiresAt)), func() { s.expire(id, st) })
}

// sessionRuns counts the parked runs of a scope's session.
func (s *parkedRuns) sessionRuns(sc tool.Scope) int {
	n := 0
	for _, st := range s.runs {
		if o := st.run.opts.Scope; o.AgentID == sc.AgentID && o.SessionKey == sc.SessionKey && o.SessionID == sc.SessionID {
			n++
		}
	}
	return n
}

// expire drops a run whose TTL passed and cancels its outstanding calls; a
// run being resumed is left to its wait.
func (s *parkedRuns) expire(id string, st *state) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.runs[id]; ok && cur == st && !st.resuming {
		delete(s.runs, id)
		st.cancel()
	}
}

// take checks the caller's scope and marks the run as being resumed. A
// missing identity on either side counts as a mismatch.
func (s *parkedRuns) take(id string, caller tool.Scope) (*state, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.runs[id]
	if !ok {
		return nil, store.ErrRunUnavailable
	}
	if err := store.CheckScope(st.run.opts.Scope, caller); err != nil {
		return nil, err
	}
	if st.resuming {
		return nil, store.ErrAlreadyResuming
	}
	st.resuming = true
	return st, nil
}

// release lets a run that a wait took be resumed again by a later wait. Its
// TTL may have passed meanwhile, when expire left it alone: the timer is
// armed again, for what is left or to expire it at once.
func (s *parkedRuns) release(st *state) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st.resuming = false
	if s.runs[st.id] == st {
		s.arm(st)
	}
}

func (s *parkedRuns) remove(st *state) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs[st.id] == st {
		delete(s.runs, st.id)
	}
	if st.expiry != nil {
		st.expiry.Stop()
	}
}

// closeAll drops every parked run on shutdown.
func (s *parkedRuns) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, st := range s.runs {
		delete(s.runs, id)
		st.cancel()
		if st.expiry != nil {
			st.expiry.Stop()
		}
	}
}

// drop removes and cancels every parked run for which match is true.
func (s *parkedRuns) drop(match func(*state) bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, st := range s.runs {
		if match(st) {
			delete(s.runs, id)
			st.cancel()
			if st.expiry != nil {
				st.expiry.Stop()
			}
			n++
		}
	}
	return n
}
