package host

import (
	"cmp"
	"context"
	"maps"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/tool"
)

// NewMemoryRunStore returns a [RunStore] in this process's memory, holding
// at most maxRuns runs (0 means 64): for several runtimes of one process,
// and for tests of what replicas do. Nothing survives the process.
func NewMemoryRunStore(maxRuns int) RunStore {
	if maxRuns <= 0 {
		maxRuns = maxParkedRuns
	}
	return &memoryRuns{max: maxRuns, runs: map[string]*memoryRun{}, beats: map[string]time.Time{}}
}

type memoryRuns struct {
	mu    sync.Mutex
	max   int
	runs  map[string]*memoryRun
	beats map[string]time.Time // replica -> alive until
}

type memoryRun struct {
	rec     ParkedRun
	settled map[abi.Ticket]abi.Outcome
	claimed bool      // a wait claimed it
	lease   time.Time // until when the claim holds
}

// live returns the run of id unless it expired, dropping it if it did.
func (m *memoryRuns) live(id string) *memoryRun {
	r := m.runs[id]
	if r != nil && time.Now().After(r.rec.Expires) {
		delete(m.runs, id)
		return nil
	}
	return r
}

func (m *memoryRuns) Park(_ context.Context, rec ParkedRun) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.live(rec.ID); r != nil {
		r.rec, r.claimed = rec, false
		return nil
	}
	n, session := 0, 0
	for id := range m.runs {
		if r := m.live(id); r != nil {
			n++
			if r.rec.Scope.SessionKey == rec.Scope.SessionKey && r.rec.Scope.SessionID == rec.Scope.SessionID {
				session++
			}
		}
	}
	switch {
	case n >= m.max:
		return ErrTooManyRuns
	case session >= cmp.Or(rec.SessionCap, SessionRunsCap):
		return ErrTooManySessionRuns
	}
	m.runs[rec.ID] = &memoryRun{rec: rec, settled: map[abi.Ticket]abi.Outcome{}}
	return nil
}

func (m *memoryRuns) Claim(_ context.Context, id string, caller tool.Scope, lease time.Duration) (ParkedRun, map[abi.Ticket]abi.Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.live(id)
	if r == nil {
		return ParkedRun{}, nil, ErrRunUnavailable
	}
	if err := CheckScope(r.rec.Scope, caller); err != nil {
		return ParkedRun{}, nil, err
	}
	if r.claimed {
		if time.Now().Before(r.lease) {
			return ParkedRun{}, nil, ErrAlreadyResuming
		}
		delete(m.runs, id)
		return ParkedRun{}, nil, ErrRunLost
	}
	r.claimed, r.lease = true, time.Now().Add(lease)
	return r.rec, maps.Clone(r.settled), nil
}

func (m *memoryRuns) Settled(_ context.Context, id string) (map[abi.Ticket]abi.Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.live(id)
	if r == nil {
		return nil, ErrRunUnavailable
	}
	return maps.Clone(r.settled), nil
}

func (m *memoryRuns) Settle(_ context.Context, id string, t abi.Ticket, out abi.Outcome) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.live(id); r != nil {
		r.settled[t] = out
	}
	return nil
}

func (m *memoryRuns) Release(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.live(id); r != nil {
		r.claimed = false
	}
	return nil
}

func (m *memoryRuns) Remove(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.runs, id)
	return nil
}

func (m *memoryRuns) DropSession(_ context.Context, s Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, r := range m.runs {
		if r.rec.Scope.SessionKey == s.Key && r.rec.Scope.SessionID == s.ID {
			delete(m.runs, id)
		}
	}
	return nil
}

func (m *memoryRuns) Beat(_ context.Context, replica string, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.beats[replica] = time.Now().Add(ttl)
	return nil
}

func (m *memoryRuns) Alive(_ context.Context, replica string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return time.Now().Before(m.beats[replica]), nil
}
