package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/seed11a79d2d/codemode/tool"

	"github.com/seed11a79d2d/codemode/store"
)

// session is the run's state session; ok is false for a run whose scope
// names none, which then has no store.
func (run *Run) session() (store.Session, bool) {
	s := store.SessionOf(run.opts.Scope)
	return s, s != store.Session{}
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
	if *a.Key == "" || utf16Len(*a.Key) > store.MaxStateKeyChars {
		return "", nil, fmt.Errorf("store and load keys are non-empty strings of at most %d characters", store.MaxStateKeyChars)
	}
	return *a.Key, a.Value, nil
}

// load answers load(key): [value] when set, [] when not.
func (run *Run) load(ctx context.Context, payload []byte) (any, error) {
	s, ok := run.session()
	if !ok {
		return nil, tool.Message(msgNoSession)
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
		return nil, tool.Message(msgNoSession)
	}
	key, value, err := stateRequest(payload)
	if err != nil {
		return nil, err
	}
	if len(value) > store.MaxStateValueBytes {
		return nil, fmt.Errorf("store %q: the value is %d bytes of JSON, more than the %d one value may hold", key, len(value), store.MaxStateValueBytes)
	}
	if err := run.rt.sessions.Store(ctx, s, key, value); err != nil {
		if errors.Is(err, store.ErrSessionFull) {
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
