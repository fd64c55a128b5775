package store

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/tool"
)

// NewMemoryRuns returns a [Runs] store in this process's memory, holding
// at most maxRuns runs (0 means [MaxParkedRuns]): for several runtimes of
// one process, and for tests of what replicas do. Nothing survives the
// process.
func NewMemoryRuns(maxRuns int) Runs {
	if maxRuns <= 0 {
		maxRuns = MaxParkedRuns
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
	case session >= rec.Cap():
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

// memoryStateBytes bounds the memory store across sessions, so that clients
// opening session after session cannot grow the process without end: past
// it, stores fail until sessions end or free keys.
const memoryStateBytes = 64 << 20

// endedFor is how long a dropped session's stores stay refused: longer than
// any leg that was running when it ended (its deadline, the leg backstop).
const endedFor = 10 * time.Minute

// NewMemorySessions returns the in-process [Sessions] store, the host's
// default.
func NewMemorySessions() Sessions {
	return &memorySessions{sessions: map[Session]*sessionValues{}, ended: map[Session]time.Time{}}
}

type memorySessions struct {
	mu       sync.Mutex
	sessions map[Session]*sessionValues
	bytes    int                   // of every session
	ended    map[Session]time.Time // dropped, and when
}

type sessionValues struct {
	values map[string]json.RawMessage
	bytes  int // keys and values
}

func (m *memorySessions) Load(_ context.Context, s Session, key string) (json.RawMessage, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sv := m.sessions[s]; sv != nil {
		v, ok := sv.values[key]
		return v, ok, nil
	}
	return nil, false, nil
}

func (m *memorySessions) Store(_ context.Context, s Session, key string, value json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, gone := m.ended[s]; gone { // a leg still running when its session ended
		return ErrSessionEnded
	}
	sv := m.sessions[s]
	if sv == nil {
		if value == nil {
			return nil
		}
		sv = &sessionValues{values: map[string]json.RawMessage{}}
		m.sessions[s] = sv
	}
	size := sv.bytes
	if old, ok := sv.values[key]; ok {
		size -= EntryCost(key, old)
	}
	if value == nil {
		delete(sv.values, key)
	} else {
		cost := EntryCost(key, value)
		if size+cost > MaxStateSessionBytes {
			return FullError(size, cost)
		}
		if m.bytes-sv.bytes+size+cost > memoryStateBytes {
			return fmt.Errorf("%w: this process holds %d bytes of session state, its limit", ErrSessionFull, m.bytes)
		}
		sv.values[key] = value
		size += cost
	}
	m.bytes += size - sv.bytes
	sv.bytes = size
	if len(sv.values) == 0 {
		delete(m.sessions, s)
	}
	return nil
}

func (m *memorySessions) Drop(_ context.Context, s Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sv := m.sessions[s]; sv != nil {
		m.bytes -= sv.bytes
		delete(m.sessions, s)
	}
	now := time.Now()
	for e, at := range m.ended {
		if now.Sub(at) > endedFor {
			delete(m.ended, e)
		}
	}
	m.ended[s] = now
	return nil
}
