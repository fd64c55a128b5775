package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
	"github.com/seed11a79d2d/codemode/tool"
)

func TestMemoryRuns(t *testing.T) {
	storetest.Runs(t, func(*testing.T) store.Runs { return store.NewMemoryRuns(40) }, 40)
}

func TestMemorySessions(t *testing.T) {
	storetest.Sessions(t, func(*testing.T) store.Sessions { return store.NewMemorySessions() })
}

// A parked run is claimed by one wait of its own scope; another session's
// wait is refused.
func Example() {
	ctx := context.Background()
	runs := store.NewMemoryRuns(0)
	owner := tool.Scope{AgentID: "a", SessionKey: "k", SessionID: "s", RunID: "r"}
	runs.Park(ctx, store.ParkedRun{ID: "cm_1", Scope: owner, Expires: time.Now().Add(time.Minute), State: []byte(`{}`)})

	stranger := owner
	stranger.SessionID = "other"
	_, _, err := runs.Claim(ctx, "cm_1", stranger, time.Minute)
	fmt.Println(errors.Is(err, store.ErrOtherSession))
	_, _, err = runs.Claim(ctx, "cm_1", owner, time.Minute)
	fmt.Println(err)

	sessions := store.NewMemorySessions()
	s := store.SessionOf(owner)
	sessions.Store(ctx, s, "cursor", json.RawMessage(`42`))
	v, ok, _ := sessions.Load(ctx, s, "cursor")
	fmt.Println(string(v), ok, store.EntryCost("cursor", v))
	// Output:
	// true
	// <nil>
	// 42 true 104
}
