package host

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/seed11a79d2d/codemode/tool"
	"slices"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/store"
)

// The shared path: with a store.Runs, a parked run is a record any process
// can resume, and its calls in flight report to the store (see store.Runs).

// portable is a parked run's state in a ParkedRun: everything a wait needs
// besides the calls' outcomes. A TypeScript cell's source map stays behind:
// errors of a run resumed elsewhere point into the JavaScript.
type portable struct {
	V           int               `json:"v"`
	Parent      string            `json:"parent"`
	Seq         int               `json:"seq"`
	Next        abi.Ticket        `json:"next"`
	RestartSafe bool              `json:"restartSafe,omitempty"`
	ReplayID    string            `json:"replayId,omitempty"`
	Returned    bool              `json:"returned,omitempty"`
	OutputBytes int               `json:"outputBytes,omitempty"`
	Agents      int               `json:"agents,omitempty"` // agents.run started, for maxAgentsPerCell
	JS          string            `json:"js"`
	Prefix      int               `json:"prefix"`
	Pending     []portableCall    `json:"pending"`
	Ready       []portableOutcome `json:"ready,omitempty"`
	Image       []byte            `json:"image"`
}

type portableCall struct {
	Ticket     abi.Ticket `json:"t"`
	ID         string     `json:"id"`
	Method     string     `json:"m"`
	Kind       callKind   `json:"k"`
	Replica    string     `json:"r,omitempty"` // where a call in flight runs
	Deferred   bool       `json:"d,omitempty"`
	ReplaySafe bool       `json:"rs,omitempty"`
	Payload    string     `json:"p,omitempty"` // a deferred request's, or a restart-safe run's replay-safe one
	Timer      int64      `json:"timer,omitempty"`
	Due        time.Time  `json:"due,omitzero"`    // an armed timer's
	Delay      int64      `json:"delay,omitempty"` // a deferred timer's, in ns
}

type portableOutcome struct {
	Ticket   abi.Ticket `json:"t"`
	Rejected bool       `json:"x,omitempty"`
	Value    string     `json:"v"`
}

const portableVersion = 1

// replicaBeat is how often a runtime with a store.Runs says it is alive, and
// replicaTTL how long one beat lasts: a replica killed mid-call is known to
// be gone within replicaTTL, and a busy one may miss four beats in a row
// before it counts as gone.
const (
	replicaBeat = time.Second
	replicaTTL  = 5 * replicaBeat
)

// newReplicaName names a process for the store's liveness checks.
func newReplicaName() string {
	var b [8]byte
	rand.Read(b[:])
	return "replica_" + hex.EncodeToString(b[:])
}

// beat keeps the runtime's replica alive in the store until stop closes.
func (r *Runtime) beat(stop <-chan struct{}) {
	tick := time.NewTicker(replicaBeat)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), replicaBeat)
		if err := r.runs.Beat(ctx, r.replica, replicaTTL); err != nil {
			r.logger.Warn("code mode run store: heartbeat failed", "err", err)
		}
		cancel()
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// lease is how long a wait's claim holds: its leg, the leg's backstop and
// a margin, so that only a wait whose process died loses its run.
func (r *Runtime) lease() time.Duration { return r.bounds.Timeout + legGrace + 5*time.Second }

// drainReady moves settlements already sent into ready, so the record
// carries them.
func (st *state) drainReady() {
	for {
		select {
		case s := <-st.done:
			if st.pending[s.ticket] != nil {
				st.ready = append(st.ready, s)
			}
		default:
			return
		}
	}
}

// encode is the run's portable state.
func (st *state) encode() ([]byte, error) {
	p := portable{V: portableVersion, Parent: st.parent, Seq: st.seq, Next: st.next, RestartSafe: st.restartSafe,
		ReplayID: st.replayID, Returned: st.returned, OutputBytes: st.outputBytes, Agents: st.swarm.Started, JS: st.pos.js, Prefix: st.pos.prefix, Image: st.image}
	for t := abi.Ticket(1); t <= st.next; t++ {
		pc := st.pending[t]
		if pc == nil {
			continue
		}
		c := portableCall{Ticket: t, ID: pc.id, Method: pc.method, Kind: pc.kind, Deferred: pc.deferred, ReplaySafe: pc.replaySafe}
		switch {
		case pc.kind == kindCall && pc.deferred:
			c.Payload = pc.payload
		case pc.kind == kindCall:
			c.Replica = cmp.Or(pc.replica, st.run.rt.replica)
			if st.restartSafe && pc.replaySafe {
				c.Payload = pc.payload // to replay it if its process dies
			}
		case pc.kind == kindTimer && pc.deferred:
			c.Timer, c.Delay = pc.timer.id, int64(pc.timer.delay)
		case pc.kind == kindTimer:
			c.Timer, c.Due = pc.timer.id, pc.timer.due
		}
		p.Pending = append(p.Pending, c)
	}
	for _, s := range st.ready {
		p.Ready = append(p.Ready, portableOutcome{s.ticket, s.outcome.Rejected, s.outcome.Value})
	}
	return json.Marshal(p)
}

// parkShared stores the parked run (its snapshot already taken) in the
// run store, and forwards the outcomes of its calls still in flight here.
func (st *state) parkShared(ctx context.Context) Result {
	run := st.run
	st.drainReady()
	data, err := st.encode()
	if err != nil {
		return st.finish(run.failed(abi.CodeInternalError, "", "code mode run cannot be stored: "+err.Error()))
	}
	expires := time.Now().Add(run.rt.bounds.SnapshotTTL)
	if err := run.rt.runs.Park(ctx, store.ParkedRun{ID: st.id, Scope: run.opts.Scope, Expires: expires, State: data, SessionCap: run.rt.sessionCap}); err != nil {
		if isStoreRefusal(err) {
			return st.finish(run.failed(abi.CodeInvalidInput, "", err.Error()))
		}
		return st.finish(run.failed(abi.CodeRuntimeUnavailable, ReasonRunStore, "code mode run store unavailable: "+err.Error()))
	}
	r := st.withOutput(st.waiting())
	st.forward(expires)
	return r
}

// forward writes to the store the outcome of each of the run's calls still
// in flight in this process, until all have settled or the run expired;
// then the state is done with.
func (st *state) forward(expires time.Time) {
	delivered := map[abi.Ticket]bool{}
	for _, s := range st.ready {
		delivered[s.ticket] = true
	}
	local := map[abi.Ticket]string{} // ticket -> call id
	for t, pc := range st.pending {
		if pc.kind == kindCall && !pc.deferred && pc.replica == "" && !delivered[t] {
			local[t] = pc.id
		}
	}
	if len(local) == 0 {
		st.cancel()
		return
	}
	f := st.run.rt.flights
	f.add(st)
	go func() {
		defer f.remove(st)
		defer st.cancel()
		ttl := time.NewTimer(time.Until(expires))
		defer ttl.Stop()
		for len(local) > 0 {
			select {
			case s := <-st.done:
				id, ok := local[s.ticket]
				if st.calls.Err() != nil { // cancelled (the run ended, or the process closes): not an outcome
					return
				}
				if !ok {
					continue
				}
				delete(local, s.ticket)
				if !st.storeOutcome(s, id, expires) {
					return
				}
			case <-ttl.C:
				return
			case <-st.calls.Done():
				return
			}
		}
	}()
}

// flights are the parked runs whose calls are still in flight here.
type flights struct {
	mu   sync.Mutex
	runs map[*state]bool
	idle *sync.Cond
}

func newFlights() *flights {
	f := &flights{runs: map[*state]bool{}}
	f.idle = sync.NewCond(&f.mu)
	return f
}

func (f *flights) add(st *state) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs[st] = true
}

func (f *flights) remove(st *state) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.runs, st)
	f.idle.Broadcast()
}

// cancel ends the flights for which match is true.
func (f *flights) cancel(match func(*state) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for st := range f.runs {
		if match(st) {
			st.cancel()
		}
	}
}

// Drain waits until every call in flight of a parked run has settled and
// its outcome is in the run store, or ctx ends: a process that stops after
// Drain loses no settled work. Without a store.Runs there is nothing to wait
// for (parked runs end with the process).
func (r *Runtime) Drain(ctx context.Context) error {
	f := r.flights
	stop := context.AfterFunc(ctx, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.idle.Broadcast()
	})
	defer stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.runs) > 0 {
		if ctx.Err() != nil {
			return fmt.Errorf("code mode drain: %d parked runs still have calls in flight: %w", len(f.runs), ctx.Err())
		}
		f.idle.Wait()
	}
	return nil
}

// isStoreRefusal tells the store's answers about a run from its failures.
func isStoreRefusal(err error) bool {
	for _, e := range []error{store.ErrRunUnavailable, store.ErrOtherSession, store.ErrOtherRun, store.ErrAlreadyResuming, store.ErrRunLost, store.ErrTooManyRuns, store.ErrTooManySessionRuns} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// waitShared is Wait with a store.Runs: claim the run, rebuild its state
// here, and resume it.
func (run *Run) waitShared(ctx context.Context, id string) Result {
	rec, outs, err := run.rt.runs.Claim(ctx, id, run.opts.Scope, run.rt.lease())
	switch {
	case isStoreRefusal(err):
		return run.failed(abi.CodeInvalidInput, "", err.Error())
	case err != nil:
		return run.failed(abi.CodeRuntimeUnavailable, ReasonRunStore, "code mode run store unavailable: "+err.Error())
	}
	if msg, failed := failedInStore(outs); failed {
		run.rt.runs.Remove(context.WithoutCancel(ctx), id)
		return run.failed(abi.CodeInternalError, ReasonLost, msg)
	}
	st, err := run.decode(ctx, rec, outs)
	if err != nil {
		run.rt.runs.Remove(context.WithoutCancel(ctx), id)
		return run.failed(abi.CodeInternalError, ReasonSnapshotRestore, "code mode run cannot be resumed: "+err.Error())
	}
	st.abort, st.deadline = ctx, time.Now().Add(run.rt.bounds.Timeout)
	return st.bounded(func() Result { return run.waitLeg(st.engineCtx(ctx), st) })
}

// decode rebuilds a claimed run's state for this Run. The record comes from
// the store, which is checked (a signature, in the Redis store) but not
// trusted with the host's invariants: every bound is checked again.
func (run *Run) decode(ctx context.Context, rec store.ParkedRun, outs map[abi.Ticket]abi.Outcome) (*state, error) {
	var p portable
	if err := json.Unmarshal(rec.State, &p); err != nil {
		return nil, fmt.Errorf("its record does not decode: %w", err)
	}
	if p.V != portableVersion {
		return nil, fmt.Errorf("its record has version %d; this build reads %d", p.V, portableVersion)
	}
	limit := run.rt.bounds.MaxPendingToolCalls + maxPendingTimers + run.rt.maxAgents() + 1
	if len(p.Pending) > limit || len(p.Ready) > len(p.Pending) || len(p.Image) > run.rt.bounds.MaxSnapshotBytes {
		return nil, errors.New("its record is past this host's bounds")
	}
	st := run.newState(p.Parent)
	st.id, st.seq, st.next, st.restartSafe, st.replayID = rec.ID, p.Seq, p.Next, p.RestartSafe, p.ReplayID
	st.returned, st.outputBytes, st.image, st.swarm.Started = p.Returned, p.OutputBytes, p.Image, max(0, p.Agents)
	st.pos.js, st.pos.prefix = p.JS, p.Prefix
	fail := func(err error) (*state, error) {
		st.cancel()
		return nil, err
	}
	var armed []*hostTimer
	for _, c := range p.Pending {
		if c.Ticket < 1 || c.Ticket > p.Next || st.pending[c.Ticket] != nil || c.Kind > kindLocal {
			return fail(errors.New("its record has an invalid pending request"))
		}
		pc := &pendingCall{id: c.ID, op: bridge.Lookup(c.Method), method: c.Method, kind: c.Kind, deferred: c.Deferred, replaySafe: c.ReplaySafe, replica: c.Replica, payload: c.Payload}
		switch {
		case c.Kind == kindCall && c.Deferred:
			req, err := st.newRequest(pc.op, c.Method, c.Payload)
			if err != nil {
				return fail(err)
			}
			pc.req, pc.payload = req, c.Payload
		case c.Kind == kindTimer:
			if _, dup := st.timers[c.Timer]; dup {
				return fail(errors.New("its record has a timer twice"))
			}
			h := &hostTimer{id: c.Timer, ticket: c.Ticket, delay: time.Duration(max(0, c.Delay))}
			if !c.Deferred {
				h.delay = max(0, time.Until(c.Due))
				armed = append(armed, h)
			}
			st.timers[c.Timer], pc.timer = h, h
		}
		st.pending[c.Ticket] = pc
	}
	for _, o := range p.Ready {
		if st.pending[o.Ticket] == nil {
			return fail(errors.New("its record settles a request it does not have"))
		}
		st.ready = append(st.ready, settled{o.Ticket, abi.Outcome{Rejected: o.Rejected, Value: o.Value}})
	}
	st.settleRemote(outs)
	for _, h := range armed {
		st.armTimer(h)
	}
	if len(run.namespaces) > 0 { // plugin namespaces are made again where the run resumes
		ns, _, err := run.createNamespaces(ctx)
		if err != nil {
			return fail(err)
		}
		st.namespaces = ns
	}
	return st, nil
}

// remoteCalls are the pending calls running in another process (or in this
// one before the run parked) whose outcome has not come yet.
func (st *state) remoteCalls() []abi.Ticket {
	got := map[abi.Ticket]bool{}
	for _, s := range st.ready {
		got[s.ticket] = true
	}
	var out []abi.Ticket
	for t, pc := range st.pending {
		if pc.kind == kindCall && pc.replica != "" && !got[t] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// settleRemote takes the store's outcomes of remote calls, in ticket order.
func (st *state) settleRemote(outs map[abi.Ticket]abi.Outcome) {
	for _, t := range st.remoteCalls() {
		if o, ok := outs[t]; ok {
			st.ready = append(st.ready, settled{t, o})
		}
	}
}

// pollRemote reads the outcomes the store has for the run's remote calls,
// and fails when one's process is gone: its outcome will never come.
func (st *state) pollRemote(ctx context.Context, checkAlive bool) error {
	outs, err := st.run.rt.runs.Settled(ctx, st.id)
	switch {
	case isStoreRefusal(err):
		return err
	case err != nil: // a store that did not answer is asked again at the next poll, within the leg
		return nil
	}
	if msg, failed := failedInStore(outs); failed {
		return errors.New(msg)
	}
	st.settleRemote(outs)
	if !checkAlive {
		return nil
	}
	for _, t := range st.remoteCalls() {
		pc := st.pending[t]
		alive, err := st.run.rt.runs.Alive(ctx, pc.replica)
		if err != nil || alive {
			continue
		}
		if st.replay(t, pc) {
			continue
		}
		return tool.Messagef("code mode nested call %s was lost: the process that ran it (%s) stopped before it finished.", pc.id, pc.replica)
	}
	return nil
}

// replay starts again here a lost call of a restart-safe run, which may
// only make replay-safe (read-only) calls: doing one twice is harmless.
func (st *state) replay(t abi.Ticket, pc *pendingCall) bool {
	if !st.restartSafe || !pc.replaySafe || pc.payload == "" {
		return false
	}
	req, err := st.newRequest(pc.op, pc.method, pc.payload)
	if err != nil || req.refused != "" || !req.replaySafe {
		return false
	}
	pc.req, pc.replica = req, ""
	st.start(t, pc)
	return true
}

// pollEvery is how often a wait asks the store for remote outcomes: soon at
// first, then backing off to pollMax.
const (
	pollFirst = 2 * time.Millisecond
	pollMax   = 50 * time.Millisecond
)
