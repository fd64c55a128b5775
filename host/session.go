package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Bounds of the state cells keep with store(key, value) and load(key).
const (
	MaxStateKeyChars     = 256
	MaxStateValueBytes   = 256 << 10
	MaxStateSessionBytes = 1 << 20
)

// Session names the session a run's stored values belong to: the
// SessionKey and SessionID of its [tool.Scope].
type Session struct{ Key, ID string }

// SessionStore keeps the JSON values cells store per session. The host checks
// keys and value sizes before it calls Store; a store enforces the session's
// total ([MaxStateSessionBytes]) because only it sees every value. Methods
// are called from nested-call goroutines and must be safe for concurrent
// use.
type SessionStore interface {
	// Load returns the value of key, or ok false when there is none.
	Load(ctx context.Context, s Session, key string) (value json.RawMessage, ok bool, err error)
	// Store sets key to value; a nil value deletes it.
	Store(ctx context.Context, s Session, key string, value json.RawMessage) error
	// Drop forgets everything of a session; Runtime.EndSession calls it.
	// A Store for that session afterwards (from a leg still running when it
	// ended) must fail rather than bring the session back.
	Drop(ctx context.Context, s Session) error
}

// ErrSessionFull is what a [SessionStore] returns (wrapped) when a value
// would take a session past [MaxStateSessionBytes].
var ErrSessionFull = errors.New("session state full")

// memoryStateBytes bounds the memory store across sessions, so that clients
// opening session after session cannot grow the process without end: past
// it, stores fail until sessions end or free keys.
const memoryStateBytes = 64 << 20

// entryBytes is what one key costs beside its key and value (the map entry,
// the slice header, the allocations), charged against both bounds: without
// it a million one-byte values held 80 MiB where the count said 2.
const entryBytes = 96

// StateEntryBytes is what a [SessionStore] counts for one key besides its
// key and value against [MaxStateSessionBytes], so that every store fills
// at the same point.
const StateEntryBytes = entryBytes

// endedFor is how long a dropped session's stores stay refused: longer than
// any leg that was running when it ended (its deadline, the leg backstop).
const endedFor = 10 * time.Minute

// NewMemorySessionStore returns the in-process [SessionStore], the default.
func NewMemorySessionStore() SessionStore {
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
		return errors.New("the session has ended")
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
		size -= entryBytes + len(key) + len(old)
	}
	if value == nil {
		delete(sv.values, key)
	} else {
		cost := entryBytes + len(key) + len(value)
		if size+cost > MaxStateSessionBytes {
			return fmt.Errorf("%w: the session holds %d bytes, and %d more would pass its %d (each key counts %d bytes besides its key and value)", ErrSessionFull, size, cost, MaxStateSessionBytes, entryBytes)
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

// session is the run's state session; ok is false for a run whose scope
// names none, which then has no store.
func (run *Run) session() (Session, bool) {
	s := Session{run.opts.Scope.SessionKey, run.opts.Scope.SessionID}
	return s, s != Session{}
}

const msgNoSession = "store and load keep values per session, and this run's scope names no session."

// stateRequest decodes a store or load payload and checks its key.
func stateRequest(payload []byte) (key string, value json.RawMessage, err error) {
	var a struct {
		Key   *string         `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(payload, &a) != nil || a.Key == nil {
		return "", nil, errors.New("invalid store request")
	}
	if *a.Key == "" || utf16Len(*a.Key) > MaxStateKeyChars {
		return "", nil, fmt.Errorf("store and load keys are non-empty strings of at most %d characters", MaxStateKeyChars)
	}
	return *a.Key, a.Value, nil
}

// load answers load(key): [value] when set, [] when not.
func (run *Run) load(ctx context.Context, payload []byte) (any, error) {
	s, ok := run.session()
	if !ok {
		return nil, errors.New(msgNoSession)
	}
	key, _, err := stateRequest(payload)
	if err != nil {
		return nil, err
	}
	v, found, err := run.rt.sessions.Load(ctx, s, key)
	switch {
	case err != nil:
		return nil, fmt.Errorf("load %q failed: %w", key, err)
	case !found:
		return []json.RawMessage{}, nil
	}
	return []json.RawMessage{v}, nil
}

// store answers store(key, value); a missing value deletes the key.
func (run *Run) store(ctx context.Context, payload []byte) (any, error) {
	s, ok := run.session()
	if !ok {
		return nil, errors.New(msgNoSession)
	}
	key, value, err := stateRequest(payload)
	if err != nil {
		return nil, err
	}
	if len(value) > MaxStateValueBytes {
		return nil, fmt.Errorf("store %q: the value is %d bytes of JSON, more than the %d one value may hold", key, len(value), MaxStateValueBytes)
	}
	if err := run.rt.sessions.Store(ctx, s, key, value); err != nil {
		if errors.Is(err, ErrSessionFull) {
			return nil, fmt.Errorf("store %q: %v; store(key, undefined) frees a key", key, err)
		}
		return nil, fmt.Errorf("store %q failed: %w", key, err)
	}
	return nil, nil
}

// utf16Len is a string's length as JavaScript counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
