package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/seed11a79d2d/codemode/tool"
)

// Session names the session a run's stored values belong to: the
// SessionKey and SessionID of its [tool.Scope].
type Session struct{ Key, ID string }

// SessionOf is the session of a scope; the zero Session when it names none.
func SessionOf(s tool.Scope) Session { return Session{s.SessionKey, s.SessionID} }

// Sessions keeps the JSON values cells store per session. The host checks
// keys ([MaxStateKeyChars]) and value sizes ([MaxStateValueBytes]) before
// it calls Store; a store enforces the session's total
// ([MaxStateSessionBytes], counted by [EntryCost]) because only it sees
// every value. Methods are called from nested-call goroutines and must be
// safe for concurrent use.
type Sessions interface {
	// Load returns the value of key, or ok false when there is none.
	Load(ctx context.Context, s Session, key string) (value json.RawMessage, ok bool, err error)
	// Store sets key to value; a nil value deletes it.
	Store(ctx context.Context, s Session, key string, value json.RawMessage) error
	// Drop forgets everything of a session; Runtime.EndSession calls it.
	// A Store for that session afterwards (from a leg still running when it
	// ended) must fail ([ErrSessionEnded]) rather than bring the session
	// back.
	Drop(ctx context.Context, s Session) error
}

// Bounds of the state cells keep with store(key, value) and load(key).
const (
	MaxStateKeyChars     = 256
	MaxStateValueBytes   = 256 << 10
	MaxStateSessionBytes = 1 << 20
)

// StateEntryBytes is what one key costs beside its key and value (a map
// entry, a slice header, the allocations): without it a million one-byte
// values held 80 MiB where the count said 2.
const StateEntryBytes = 96

// EntryCost is what key holding value counts against
// [MaxStateSessionBytes], in every store, so that every store fills at the
// same point.
func EntryCost(key string, value []byte) int { return StateEntryBytes + len(key) + len(value) }

// ErrSessionFull is what a [Sessions] store returns (wrapped) when a value
// would take a session past [MaxStateSessionBytes]; [FullError] words it.
var ErrSessionFull = errors.New("session state full")

// ErrSessionEnded is what a [Sessions] store returns for a Store after the
// session was dropped.
var ErrSessionEnded = errors.New("the session has ended")

// FullError is the error of a Store refused because the session holds
// held bytes and the value would add cost more.
func FullError(held, cost int) error {
	return fmt.Errorf("%w: the session holds %d bytes, and %d more would pass its %d (each key counts %d bytes besides its key and value)",
		ErrSessionFull, held, cost, MaxStateSessionBytes, StateEntryBytes)
}
