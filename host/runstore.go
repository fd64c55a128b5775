package host

import (
	"context"
	"errors"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/tool"
)

// RunStore keeps parked runs where every process that shares it can resume
// them: replicas behind a load balancer, or a process after a restart. Set
// it as [Options.Runs]; without one, parked runs stay in the process as
// live state, as before.
//
// A parked run is a [ParkedRun] record (its snapshot and the host's state
// of it, opaque to the store) plus the outcomes of its nested calls, which
// the replica that started each call writes with Settle as they complete. A
// wait takes the run with Claim: a lease no other wait can take until the
// holder parks the run again (Park), gives it back (Release) or ends it
// (Remove). A claim whose holder vanished without doing either leaves the
// run lost, never resumed twice. Methods must be safe for concurrent use.
//
// Implementations: [NewMemoryRunStore] (one process, several runtimes) and
// the Redis store in package redisstore.
type RunStore interface {
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

// ParkedRun is one parked run as a [RunStore] keeps it.
type ParkedRun struct {
	ID    string
	Scope tool.Scope
	// Expires is when it can no longer be resumed (snapshotTtlSeconds).
	Expires time.Time
	// State is the host's encoding of the run: its snapshot, pending calls
	// and what was settled before it parked. A store keeps it as it is.
	State []byte
	// SessionCap is how many parked runs the run's session may hold, across
	// every replica ([Options.MaxSessionRuns]).
	SessionCap int
}

// Errors of a [RunStore]; the host words them for the model.
var (
	ErrRunUnavailable     = errors.New(msgUnavailable)
	ErrOtherSession       = errors.New(msgOtherSession)
	ErrOtherRun           = errors.New(msgOtherRun)
	ErrAlreadyResuming    = errors.New(msgAlreadyResuming)
	ErrRunLost            = errors.New(msgRunLost)
	ErrTooManyRuns        = errors.New(msgTooManyRuns)
	ErrTooManySessionRuns = errors.New(msgTooManySessionRuns)
)

// CheckScope is the rule a [RunStore]'s Claim applies: the caller must be
// the run's agent, session and agent run, and a caller without a session
// is nobody's.
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

// MaxParkedRuns is how many runs one process keeps parked without a
// [RunStore].
const MaxParkedRuns = maxParkedRuns

// SessionRunsCap is how many parked runs one session may hold by default,
// in the process or, with a [RunStore], across every replica: a client that
// moves between replicas keeps one share.
const SessionRunsCap = maxSessionRuns
