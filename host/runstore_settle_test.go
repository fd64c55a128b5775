package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/store"
)

// stalling is a store.Runs whose next Settle writes (failSettles of them)
// and Settled reads (failReads) fail as a stalled Redis's do; every Settle
// attempt is reported on settles.
type stalling struct {
	store.Runs
	mu                     sync.Mutex
	failSettles, failReads int
	settles                chan abi.Ticket
}

var errStalled = errors.New("run store: redis did not answer in time")

func (s *stalling) Settle(ctx context.Context, id string, t abi.Ticket, o abi.Outcome) error {
	s.mu.Lock()
	fail := s.failSettles > 0
	if fail {
		s.failSettles--
	}
	s.mu.Unlock()
	s.settles <- t
	if fail {
		return errStalled
	}
	return s.Runs.Settle(ctx, id, t, o)
}

func (s *stalling) Settled(ctx context.Context, id string) (map[abi.Ticket]abi.Outcome, error) {
	s.mu.Lock()
	fail := s.failReads > 0
	if fail {
		s.failReads--
	}
	s.mu.Unlock()
	if fail {
		return nil, errStalled
	}
	return s.Runs.Settled(ctx, id)
}

// parkSlowCall parks a run on a whose slow call is held by g, with the
// store failing the given writes and reads.
func parkSlowCall(t *testing.T, failSettles, failReads int) (rs *stalling, g *gate, onB *Run, id string) {
	t.Helper()
	rs = &stalling{Runs: store.NewMemoryRuns(0), failSettles: failSettles, failReads: failReads, settles: make(chan abi.Ticket, 64)}
	g = newGate()
	t.Cleanup(g.open)
	a, b := replicas(t, fmt.Sprintf(`{"enabled":true,"timeoutMs":%d}`, parkTimeoutMs), rs, g.tool())
	r := exec(t, prepare(t, a, RunOptions{}), `const v = await tools.callValue("slow_echo", {v: 41}); return v.v + 1`)
	if r.Status != StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	<-g.calls
	return rs, g, prepare(t, b, RunOptions{}), r.RunID
}

// waitOut waits on run until it is no longer waiting, at most limit
// times: a run whose outcome was written, or that was marked failed, never
// waits until its TTL.
func waitOut(t *testing.T, run *Run, id string, limit int) Result {
	t.Helper()
	for range limit {
		if r := waitFor(run, id); r.Status != StatusWaiting {
			return r
		}
	}
	t.Fatalf("still waiting after %d waits", limit)
	return Result{}
}

// A store that stalls for two of the outcome's writes takes the third: the
// run completes, and a wait during the stall that could not poll the store
// is waiting, not failed.
func TestStalledStoreOutcomeRetried(t *testing.T) {
	rs, g, onB, id := parkSlowCall(t, 2, 3)
	g.open()
	for range 3 {
		if tk := <-rs.settles; tk != 1 {
			t.Fatalf("settled ticket %d", tk)
		}
	}
	if r := waitOut(t, onB, id, 20); r.Status != StatusCompleted || string(r.Value) != "42" {
		t.Fatalf("wait: %+v", r)
	}
}

// A store that stays away past every write of the outcome, and the first
// write of the mark, fails the run: the next wait says the store was
// unavailable, once, and the run is gone after it.
func TestStalledStoreFailsTheRun(t *testing.T) {
	rs, g, onB, id := parkSlowCall(t, settleAttempts+1, 0)
	g.open()
	for i := range settleAttempts + 2 { // the outcome's writes, then two of the mark's
		want := abi.Ticket(1)
		if i >= settleAttempts {
			want = failedTicket
		}
		if tk := <-rs.settles; tk != want {
			t.Fatalf("write %d: ticket %d, want %d", i, tk, want)
		}
	}
	r := waitOut(t, onB, id, 20)
	if r.Status != StatusFailed || r.Code != abi.CodeInternalError || !strings.Contains(r.Error, "the run store was unavailable when its nested call") ||
		!strings.Contains(r.Error, "redis did not answer in time") {
		t.Fatalf("wait: %+v", r)
	}
	if r := waitFor(onB, id); r.Status != StatusFailed || r.Error != store.ErrRunUnavailable.Error() {
		t.Fatalf("a wait after: %+v", r)
	}
}
