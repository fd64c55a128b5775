// Package store is what a backend implements to keep Code Mode's state
// outside one runtime: parked runs ([Runs]) that any replica can resume,
// and the values cells keep per session ([Sessions]). It holds the two
// interfaces, their errors and caps, the accounting every implementation
// shares, and the in-memory implementations; package storetest checks an
// implementation against the contract.
//
// It is a leaf: it links no engine, so that a store (package redisstore)
// is built and tested without the JavaScript sandbox.
package store

import (
	"cmp"
	"context"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/tool"
)

// Runs keeps parked runs where every process that shares it can resume
// them: replicas behind a load balancer, or a process after a restart. Set
// it as host.Options.Runs; without one, parked runs stay in the process as
// live state.
//
// A parked run is a [ParkedRun] record (its snapshot and the host's state
// of it, opaque to the store) plus the outcomes of its nested calls, which
// the replica that started each call writes with Settle as they complete. A
// wait takes the run with Claim: a lease no other wait can take until the
// holder parks the run again (Park), gives it back (Release) or ends it
// (Remove). A claim whose holder vanished without doing either leaves the
// run lost, never resumed twice. Methods must be safe for concurrent use.
//
// Implementations: [NewMemoryRuns] (one process, several runtimes) and
// the Redis store in package redisstore.
type Runs interface {
	// Park stores rec, replacing the run's earlier record and ending any
	// claim of it. A new run (no record yet) counts against the caps:
	// [ErrTooManyRuns], [ErrTooManySessionRuns].
	Park(ctx context.Context, rec ParkedRun) error
	// Claim leases the run for one wait by caller, for at most lease, and
	// returns its record and the outcomes settled so far. Errors:
	// [ErrRunUnavailable], [ErrOtherSession], [ErrOtherRun],
	// [ErrAlreadyResuming], [ErrRunLost].
	Claim(ctx context.Context, id string, caller tool.Scope, lease time.Duration) (ParkedRun, map[abi.Ticket]abi.Outcome, error)
	// Settled returns the outcomes settled so far of a claimed run.
	Settled(ctx context.Context, id string) (map[abi.Ticket]abi.Outcome, error)
	// Settle records the outcome of one nested call of a parked run. A run
	// that is gone takes no outcome, without an error. Ticket 0 is no call:
	// it is the host's mark that the run failed (a call's outcome could not
	// be stored), the reason in its Value; a store keeps it like the others.
	// A store should bound its own operations (seconds), so that a stalled
	// backend fails them with an error rather than holding them.
	Settle(ctx context.Context, id string, ticket abi.Ticket, out abi.Outcome) error
	// Release ends a claim and leaves the run parked as it was.
	Release(ctx context.Context, id string) error
	// Remove forgets the run: it completed, failed or was aborted.
	Remove(ctx context.Context, id string) error
	// DropSession forgets every run of a session.
	DropSession(ctx context.Context, s Session) error
	// Beat says that a replica is alive for ttl; Alive reports whether one
	// said so within its last ttl.
	Beat(ctx context.Context, replica string, ttl time.Duration) error
	Alive(ctx context.Context, replica string) (bool, error)
}

// ParkedRun is one parked run as a [Runs] store keeps it.
type ParkedRun struct {
	ID    string
	Scope tool.Scope
	// Expires is when it can no longer be resumed (snapshotTtlSeconds).
	Expires time.Time
	// State is the host's encoding of the run: its snapshot, pending calls
	// and what was settled before it parked. A store keeps it as it is.
	State []byte
	// SessionCap is how many parked runs the run's session may hold, across
	// every replica (host.Options.MaxSessionRuns); zero means
	// [SessionRunsCap]. See [ParkedRun.Cap].
	SessionCap int
}

// Cap is how many parked runs the run's session may hold: SessionCap, or
// [SessionRunsCap] when it is zero.
func (r ParkedRun) Cap() int { return cmp.Or(r.SessionCap, SessionRunsCap) }

// Errors of a [Runs] store. Their text is what the model reads: the host
// passes it on as the wait's error.
var (
	ErrRunUnavailable     = tool.Message("code mode run is unavailable or expired.")
	ErrOtherSession       = tool.Message("code mode run belongs to a different session.")
	ErrOtherRun           = tool.Message("code mode run belongs to a different agent run.")
	ErrAlreadyResuming    = tool.Message("code mode run is already being resumed.")
	ErrRunLost            = tool.Message("code mode run was lost: the process resuming it stopped before it parked or finished.")
	ErrTooManyRuns        = tool.Message("too many suspended code mode runs.")
	ErrTooManySessionRuns = tool.Message("too many suspended code mode runs in this session: wait for one to finish or let it expire.")
)

// CheckScope is the rule a Claim applies: the caller must be the run's
// agent, session and agent run, and a caller without a session is
// nobody's.
func CheckScope(owner, caller tool.Scope) error {
	switch {
	case owner.AgentID != caller.AgentID || owner.SessionKey != caller.SessionKey ||
		owner.SessionID != caller.SessionID || caller.SessionID == "" && caller.SessionKey == "":
		return ErrOtherSession
	case owner.RunID != caller.RunID || caller.RunID == "":
		return ErrOtherRun
	}
	return nil
}

// MaxParkedRuns bounds the runs one process keeps parked without a [Runs]
// store, and SessionRunsCap a session's default share of them, so that one
// session cannot take every slot. With a store the share holds across
// every replica: a client that moves between replicas keeps one share.
const (
	MaxParkedRuns  = 64
	SessionRunsCap = MaxParkedRuns / 4
)
