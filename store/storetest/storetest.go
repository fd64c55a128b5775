// Package storetest checks that a store keeps the contract the host relies
// on. [Runs] checks a [store.Runs]: the caps, scope checks, exclusive
// claims, lost claims, outcomes, expiry, sessions and liveness. [Sessions]
// checks a [store.Sessions]: values per session, the session bound as
// [store.EntryCost] counts it, and a dropped session that stays dropped.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// Runs runs the contract's checks on stores made by open; maxRuns is the
// store's total cap. Each store it opens must start empty.
func Runs(t *testing.T, open func(t *testing.T) store.Runs, maxRuns int) {
	ctx := context.Background()
	scope := tool.Scope{AgentID: "a", SessionKey: "k", SessionID: "s", RunID: "r"}
	rec := func(id string, sc tool.Scope) store.ParkedRun {
		return store.ParkedRun{ID: id, Scope: sc, Expires: time.Now().Add(time.Minute), State: []byte(`{"state":"` + id + `"}`)}
	}
	lease := time.Minute

	t.Run("park, claim, settle, remove", func(t *testing.T) {
		s := open(t)
		if err := s.Park(ctx, rec("cm_1", scope)); err != nil {
			t.Fatal(err)
		}
		got, outs, err := s.Claim(ctx, "cm_1", scope, lease)
		if err != nil || string(got.State) != `{"state":"cm_1"}` || got.Scope != scope || len(outs) != 0 {
			t.Fatalf("claim: %v %+v %v", err, got, outs)
		}
		if got.Expires.Before(time.Now()) || got.Expires.After(time.Now().Add(2*time.Minute)) {
			t.Fatalf("expires %v", got.Expires)
		}
		if _, _, err := s.Claim(ctx, "cm_1", scope, lease); !errors.Is(err, store.ErrAlreadyResuming) {
			t.Fatalf("second claim: %v", err)
		}
		if err := s.Settle(ctx, "cm_1", 3, abi.Resolve(`{"v":1}`)); err != nil {
			t.Fatal(err)
		}
		if err := s.Settle(ctx, "cm_1", 4, abi.Reject("no")); err != nil {
			t.Fatal(err)
		}
		outs, err = s.Settled(ctx, "cm_1")
		if err != nil || outs[3] != abi.Resolve(`{"v":1}`) || outs[4] != abi.Reject("no") || len(outs) != 2 {
			t.Fatalf("settled: %v %v", err, outs)
		}
		// The holder parks it again: the claim ends, outcomes stay.
		next := rec("cm_1", scope)
		next.State = []byte(`{"state":"next"}`)
		if err := s.Park(ctx, next); err != nil {
			t.Fatal(err)
		}
		got, outs, err = s.Claim(ctx, "cm_1", scope, lease)
		if err != nil || string(got.State) != `{"state":"next"}` || len(outs) != 2 {
			t.Fatalf("claim after re-park: %v %s %v", err, got.State, outs)
		}
		if err := s.Remove(ctx, "cm_1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Claim(ctx, "cm_1", scope, lease); !errors.Is(err, store.ErrRunUnavailable) {
			t.Fatalf("claim after remove: %v", err)
		}
		if err := s.Settle(ctx, "cm_1", 5, abi.Resolve("1")); err != nil {
			t.Fatalf("a settle after the run ended must be dropped quietly: %v", err)
		}
	})

	// Ticket 0 is the host's mark that a run failed: kept like an outcome,
	// on a run that no wait holds.
	t.Run("failed mark", func(t *testing.T) {
		s := open(t)
		s.Park(ctx, rec("cm_f", scope))
		if err := s.Settle(ctx, "cm_f", 0, abi.Reject("the run store was unavailable")); err != nil {
			t.Fatal(err)
		}
		_, outs, err := s.Claim(ctx, "cm_f", scope, lease)
		if err != nil || outs[0] != abi.Reject("the run store was unavailable") {
			t.Fatalf("claim: %v %v", err, outs)
		}
	})

	t.Run("release", func(t *testing.T) {
		s := open(t)
		s.Park(ctx, rec("cm_r", scope))
		if _, _, err := s.Claim(ctx, "cm_r", scope, lease); err != nil {
			t.Fatal(err)
		}
		if err := s.Release(ctx, "cm_r"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Claim(ctx, "cm_r", scope, lease); err != nil {
			t.Fatalf("claim after release: %v", err)
		}
	})

	t.Run("scope", func(t *testing.T) {
		s := open(t)
		s.Park(ctx, rec("cm_s", scope))
		for _, c := range []struct {
			caller tool.Scope
			want   error
		}{
			{tool.Scope{AgentID: "a", SessionKey: "other", SessionID: "s", RunID: "r"}, store.ErrOtherSession},
			{tool.Scope{AgentID: "b", SessionKey: "k", SessionID: "s", RunID: "r"}, store.ErrOtherSession},
			{tool.Scope{AgentID: "a", SessionKey: "k", SessionID: "s", RunID: "r2"}, store.ErrOtherRun},
			{tool.Scope{}, store.ErrOtherSession},
		} {
			if _, _, err := s.Claim(ctx, "cm_s", c.caller, lease); !errors.Is(err, c.want) {
				t.Errorf("%+v: %v, want %v", c.caller, err, c.want)
			}
		}
		if _, _, err := s.Claim(ctx, "cm_s", scope, lease); err != nil {
			t.Fatalf("the owner after refused callers: %v", err)
		}
	})

	t.Run("a claim whose holder vanished is lost", func(t *testing.T) {
		s := open(t)
		s.Park(ctx, rec("cm_l", scope))
		if _, _, err := s.Claim(ctx, "cm_l", scope, 50*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		for {
			_, _, err := s.Claim(ctx, "cm_l", scope, lease)
			if errors.Is(err, store.ErrRunLost) {
				break
			}
			if !errors.Is(err, store.ErrAlreadyResuming) {
				t.Fatalf("claim while the lease holds: %v", err)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if _, _, err := s.Claim(ctx, "cm_l", scope, lease); !errors.Is(err, store.ErrRunUnavailable) {
			t.Fatalf("after lost: %v", err)
		}
	})

	t.Run("expiry", func(t *testing.T) {
		s := open(t)
		r := rec("cm_e", scope)
		r.Expires = time.Now().Add(100 * time.Millisecond)
		s.Park(ctx, r)
		for {
			_, _, err := s.Claim(ctx, "cm_e", scope, lease)
			if errors.Is(err, store.ErrRunUnavailable) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			s.Release(ctx, "cm_e")
			time.Sleep(20 * time.Millisecond)
		}
	})

	t.Run("caps", func(t *testing.T) {
		s := open(t)
		for i := range store.SessionRunsCap {
			if err := s.Park(ctx, rec(fmt.Sprintf("cm_c%d", i), scope)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Park(ctx, rec("cm_c_over", scope)); !errors.Is(err, store.ErrTooManySessionRuns) {
			t.Fatalf("past the session cap: %v", err)
		}
		n := store.SessionRunsCap
		for i := 0; n < maxRuns; i++ {
			sc := tool.Scope{AgentID: "a", SessionKey: fmt.Sprint("k", i), SessionID: "s", RunID: "r"}
			for j := 0; j < store.SessionRunsCap && n < maxRuns; j++ {
				if err := s.Park(ctx, rec(fmt.Sprintf("cm_t%d_%d", i, j), sc)); err != nil {
					t.Fatalf("run %d: %v", n, err)
				}
				n++
			}
		}
		other := tool.Scope{AgentID: "a", SessionKey: "last", SessionID: "s", RunID: "r"}
		if err := s.Park(ctx, rec("cm_over", other)); !errors.Is(err, store.ErrTooManyRuns) {
			t.Fatalf("past the total cap: %v", err)
		}
		s.Remove(ctx, "cm_c0")
		if err := s.Park(ctx, rec("cm_over", other)); err != nil {
			t.Fatalf("after a removal: %v", err)
		}
	})

	t.Run("drop session", func(t *testing.T) {
		s := open(t)
		other := tool.Scope{AgentID: "a", SessionKey: "k2", SessionID: "s2", RunID: "r"}
		s.Park(ctx, rec("cm_d1", scope))
		s.Park(ctx, rec("cm_d2", scope))
		s.Park(ctx, rec("cm_d3", other))
		if err := s.DropSession(ctx, store.Session{Key: "k", ID: "s"}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"cm_d1", "cm_d2"} {
			if _, _, err := s.Claim(ctx, id, scope, lease); !errors.Is(err, store.ErrRunUnavailable) {
				t.Errorf("%s: %v", id, err)
			}
		}
		if _, _, err := s.Claim(ctx, "cm_d3", other, lease); err != nil {
			t.Fatalf("another session's run: %v", err)
		}
	})

	t.Run("liveness", func(t *testing.T) {
		s := open(t)
		if ok, err := s.Alive(ctx, "nobody"); ok || err != nil {
			t.Fatalf("an unknown replica: %v %v", ok, err)
		}
		s.Beat(ctx, "r1", 100*time.Millisecond)
		if ok, _ := s.Alive(ctx, "r1"); !ok {
			t.Fatal("a replica that just beat is not alive")
		}
		for ok := true; ok; {
			time.Sleep(20 * time.Millisecond)
			ok, _ = s.Alive(ctx, "r1")
		}
	})

	t.Run("racing claims", func(t *testing.T) {
		s := open(t)
		for i := range 20 {
			id := fmt.Sprint("cm_race", i)
			if err := s.Park(ctx, rec(id, scope)); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			won := 0
			for range 8 {
				wg.Go(func() {
					if _, _, err := s.Claim(ctx, id, scope, lease); err == nil {
						mu.Lock()
						won++
						mu.Unlock()
					} else if !errors.Is(err, store.ErrAlreadyResuming) {
						t.Errorf("claim: %v", err)
					}
				})
			}
			wg.Wait()
			if won != 1 {
				t.Fatalf("%s: %d claims won", id, won)
			}
			s.Remove(ctx, id)
		}
	})
}
