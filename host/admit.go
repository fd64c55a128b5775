package host

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/tool"
)

// defaultRunningCells is the default of Options.MaxRunningCells: enough to
// keep every core busy while other cells wait on tools, few enough that
// memory stays near slots x memoryLimitBytes.
func defaultRunningCells() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// defaultSessionCells is the default of Options.MaxSessionCells: a quarter
// of the slots, about one per core with the default slots, so that one
// session can keep every core busy but not hold every slot (RATIONALE.md).
func defaultSessionCells(slots int) int { return max(1, slots/4) }

// slots are the runtime's cell slots. A session (its scope's agent, key and
// id) holds at most share of them; a run without a session is nobody's and
// bounded by total only. Waiters queue in arrival order; when a slot frees
// it goes to the first waiter whose session is below its share, so a
// session over its share waits behind its own cells while others pass.
type slots struct {
	mu    sync.Mutex
	total int
	share int
	used  int
	held  map[string]int // session key -> slots held
	queue []*slotWaiter  // in arrival order, none of them admissible
}

type slotWaiter struct {
	key   string
	ready chan struct{} // closed once granted
}

func newSlots(total, share int) *slots {
	return &slots{total: total, share: min(share, total), held: map[string]int{}}
}

// sessionKey is the key a scope's slots count under; "" is no session.
func sessionKey(sc tool.Scope) string {
	if sc.SessionKey == "" && sc.SessionID == "" {
		return ""
	}
	return sc.AgentID + "\x00" + sc.SessionKey + "\x00" + sc.SessionID
}

// admissible reports whether key may take a slot now; mu is held.
func (s *slots) admissible(key string) bool {
	return s.used < s.total && (key == "" || s.held[key] < s.share)
}

func (s *slots) take(key string) {
	s.used++
	if key != "" {
		s.held[key]++
	}
}

// acquire waits for a slot until deadline or ctx ends. A waiter that gives
// up leaves the queue; one granted just as it gave up hands the slot on, so
// giving up frees nothing and keeps nothing.
func (s *slots) acquire(ctx context.Context, key string, deadline time.Time) (release func(), ok bool) {
	s.mu.Lock()
	if s.admissible(key) {
		s.take(key)
		s.mu.Unlock()
		return s.releaser(key), true
	}
	w := &slotWaiter{key: key, ready: make(chan struct{})}
	s.queue = append(s.queue, w)
	s.mu.Unlock()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-w.ready:
		return s.releaser(key), true
	case <-timer.C:
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, q := range s.queue {
		if q == w {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			return nil, false
		}
	}
	s.free(key) // granted meanwhile: pass it on
	return nil, false
}

// releaser returns the release of one slot of key, safe to call twice.
func (s *slots) releaser(key string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.free(key)
		})
	}
}

// free returns a slot of key and grants the slots that are free to the
// first admissible waiters; mu is held.
func (s *slots) free(key string) {
	s.used--
	if key != "" {
		if s.held[key]--; s.held[key] <= 0 {
			delete(s.held, key)
		}
	}
	for i := 0; i < len(s.queue) && s.used < s.total; {
		w := s.queue[i]
		if !s.admissible(w.key) {
			i++
			continue
		}
		s.take(w.key)
		s.queue = append(s.queue[:i], s.queue[i+1:]...)
		close(w.ready)
	}
}

// state reports the slots in use, those of key, and the waiters: for
// tests and the busy message.
func (s *slots) state(key string) (used, held, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used, s.held[key], len(s.queue)
}

// admit waits for one of the runtime's cell slots within the run's
// session's share, until the leg's deadline or its caller gives up: a burst
// queues instead of failing, memory stays bounded, and one session's cells
// cannot keep another's from starting. It returns the slot's release, or
// false without a slot.
func (run *Run) admit(ctx context.Context, deadline time.Time) (release func(), ok bool) {
	return run.rt.slots.acquire(ctx, sessionKey(run.opts.Scope), deadline)
}

// busyMessage says which bound kept a cell from starting: the session's
// share, or the process's slots.
func (run *Run) busyMessage() string {
	s := run.rt.slots
	if key := sessionKey(run.opts.Scope); key != "" {
		if _, held, _ := s.state(key); held >= s.share {
			return fmt.Sprintf("code mode is busy: this session's other cells held all %d of its cell slots until this call's deadline; let one of them finish, then try again.", held)
		}
	}
	return fmt.Sprintf("code mode is busy: all %d cell slots stayed in use until this call's deadline; try again.", s.total)
}
