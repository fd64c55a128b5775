package host

import (
	"errors"
	"github.com/seed11a79d2d/codemode/tool"
	"sync"
	"time"
)

// maxParkedRuns bounds suspended runs per process, and maxSessionRuns a
// session's share of them, so that one session cannot take every slot. A
// client that opens several sessions gets a share in each: the share is per
// session, not per client, and so the last of the slots are headroom that
// only light sessions may take (see parkRoom). A session's runs end with it
// (Runtime.EndSession), or with their TTL.
const (
	maxParkedRuns  = 64
	maxSessionRuns = maxParkedRuns / 4
)

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
		return ErrTooManyRuns
	case session >= sessionCap:
		return ErrTooManySessionRuns
	case n >= total-headroom && session >= lightRuns(sessionCap):
		return ErrTooManyRuns
	}
	return nil
}

// lightRuns is how many parked runs a session may hold and still take the
// headroom: a session that waits on one run while it starts another.
func lightRuns(sessionCap int) int { return max(1, sessionCap/8) }

// store is the process-local map of parked runs.
type store struct {
	mu         sync.Mutex
	runs       map[string]*state
	sessionCap int // maxSessionRuns, or Options.MaxSessionRuns
}

func newStore() *store { return &store{runs: map[string]*state{}, sessionCap: maxSessionRuns} }

// park stores a run (or refreshes a run that is parked again) with a TTL.
func (s *store) park(st *state, ttl time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.abandoned.Load() { // its caller already got a timeout
		return errors.New(msgTimeout)
	}
	if _, ok := s.runs[st.id]; !ok {
		if err := parkRoom(len(s.runs), maxParkedRuns, s.sessionRuns(st.run.opts.Scope), s.sessionCap); err != nil {
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
func (s *store) arm(st *state) {
	if st.expiry != nil {
		st.expiry.Stop()
	}
	id := st.id
	st.expiry = time.AfterFunc(max(0, time.Until(st.expiresAt)), func() { s.expire(id, st) })
}

// sessionRuns counts the parked runs of a scope's session.
func (s *store) sessionRuns(sc tool.Scope) int {
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
func (s *store) expire(id string, st *state) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.runs[id]; ok && cur == st && !st.resuming {
		delete(s.runs, id)
		st.cancel()
	}
}

// take checks the caller's scope and marks the run as being resumed. A
// missing identity on either side counts as a mismatch.
func (s *store) take(id string, caller tool.Scope) (*state, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.runs[id]
	if !ok {
		return nil, errors.New(msgUnavailable)
	}
	if err := CheckScope(st.run.opts.Scope, caller); err != nil {
		return nil, err
	}
	if st.resuming {
		return nil, errors.New(msgAlreadyResuming)
	}
	st.resuming = true
	return st, nil
}

// release lets a run that a wait took be resumed again by a later wait. Its
// TTL may have passed meanwhile, when expire left it alone: the timer is
// armed again, for what is left or to expire it at once.
func (s *store) release(st *state) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st.resuming = false
	if s.runs[st.id] == st {
		s.arm(st)
	}
}

func (s *store) remove(st *state) {
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
func (s *store) closeAll() {
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
func (s *store) drop(match func(*state) bool) int {
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
