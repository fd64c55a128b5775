package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/source"
	"github.com/seed11a79d2d/codemode/host/internal/swarm"
	"github.com/seed11a79d2d/codemode/tool"
)

// state is one code-mode run across its exec and wait legs. Its fields are
// used by the goroutine driving the current leg, except done, which the
// nested calls' goroutines send on.
type state struct {
	run    *Run
	id     string // cm_<uuid>, assigned when first parked
	parent string // the exec's tool-call id
	seq    int
	// restartSafe runs never auto-drain; replayID names them for recovery.
	restartSafe bool
	// once marks a tool_search_code cell: it fails where it would park.
	once     bool
	replayID string

	idPrefix string // of its nested calls' ids (see nextCallID)

	next    abi.Ticket
	pending map[abi.Ticket]*pendingCall // not yet delivered into the VM
	timers  map[int64]*hostTimer        // pending guest timers, by their id
	// returned is set once the cell's body has returned: its timers are
	// over, and new ones never fire.
	returned bool
	done     chan settled // completions, in completion order
	ready    []settled    // received but not yet delivered

	output        []Output
	outputBytes   int
	outputTooLong string // what passed maxOutputBytes, when an item did
	outputTooDeep bool   // an item was too deep for encoding/json

	namespaces nsRuntime // this exec's namespace scopes
	pos        positions // maps error positions back to the user's code
	ranAs      string    // telemetry: "typescript" for TypeScript the request did not name

	swarm swarm.Cell // agents.run, phase and log, across legs (swarm.go)

	calls  context.Context // outstanding nested calls; cancelled on expiry or end
	cancel context.CancelFunc

	// per leg
	deadline  time.Time
	abort     context.Context
	image     []byte
	resuming  bool        // a wait holds it; guarded by the store's lock
	abandoned atomic.Bool // its leg overran and the caller has returned
	// trace is the Trajectory of the Run whose leg runs now (see trajectory).
	trace     atomic.Pointer[func(NestedCall)]
	expiry    *time.Timer // guarded by the store's lock
	expiresAt time.Time   // when its TTL ends; guarded by the store's lock
}

type pendingCall struct {
	id     string // nested tool-call id
	op     bridge.Op
	method string // the op's wire name, as the guest sent it
	kind   callKind
	timer  *hostTimer // of a kindTimer
	req    *request   // of a kindCall
	// A restart-safe run defers every call until wait, when it has checked
	// that all of them are replay-safe.
	deferred   bool
	replaySafe bool
	// payload is a deferred request's, so that another process can
	// resolve it again (see store.Runs).
	payload string
	// replica runs a call of a run resumed from a store.Runs: the call went
	// on there, and its outcome comes through the store.
	replica string
}

// callKind says what a pending request waits for.
type callKind uint8

const (
	kindCall  callKind = iota // host work on a worker: a nested call, store, load
	kindYield                 // yield_control: the run parks for wait
	kindTimer                 // a guest timer: due after its delay
	kindLocal                 // answered inside Request (a refusal); only its delivery is left
)

type settled struct {
	ticket  abi.Ticket
	outcome abi.Outcome
}

func (run *Run) newState(parent string) *state {
	// done holds every settlement a parked run can have, so no sender blocks.
	st := &state{run: run, parent: parent, pending: map[abi.Ticket]*pendingCall{}, timers: map[int64]*hostTimer{},
		done: make(chan settled, run.rt.bounds.MaxPendingToolCalls+maxPendingTimers+run.rt.maxAgents())}
	st.calls, st.cancel = context.WithCancel(context.Background())
	st.follow(run)
	return st
}

// follow makes run's Trajectory the one the run's nested calls are recorded
// in from now on: a wait's, once it resumes the run, so that a call that
// settles during the wait reaches the wait's listener, not the exec's.
func (st *state) follow(run *Run) {
	t := run.opts.Trajectory
	st.trace.Store(&t)
}

// trajectory is where a nested call that finishes now is recorded, or nil.
func (st *state) trajectory() func(NestedCall) { return *st.trace.Load() }

// Request implements abi.Host: it looks the op up in the bridge's table,
// registers the request and starts it on its own goroutine; a yield waits
// for wait, a timer for its delay.
func (st *state) Request(name, payload string) (abi.Ticket, error) {
	op := bridge.Lookup(name)
	kind := kindCall
	switch op.Kind() {
	case bridge.Yielding:
		kind = kindYield
	case bridge.Timed:
		if st.returned {
			return st.refuseTimer(), nil
		}
		kind = kindTimer
	case bridge.Clearing:
		return st.clearTimer(payload)
	case bridge.Noting:
		return st.note(op, payload)
	}
	if op.Bounded() && st.undelivered() >= st.run.rt.bounds.MaxPendingToolCalls {
		return 0, errors.New(msgTooManyPending)
	}
	pc := &pendingCall{op: op, method: name, kind: kind}
	switch kind {
	case kindTimer:
		h, err := st.newTimer(st.next+1, payload)
		if err != nil {
			return 0, err
		}
		pc.timer = h
	case kindCall:
		req, err := st.newRequest(op, name, payload)
		if err != nil {
			return 0, err
		}
		pc.req, name = req, req.name
	}
	st.next++
	t := st.next
	pc.id = st.nextCallID(name)
	st.pending[t] = pc
	switch {
	case kind == kindYield:
	case st.restartSafe: // a refusal is no replay-safe request either
		pc.deferred, pc.payload = true, payload
		pc.replaySafe = kind == kindTimer || pc.req.refused == "" && pc.req.replaySafe
	case pc.req != nil && pc.req.refused != "":
		pc.kind = kindLocal
		st.ready = append(st.ready, settled{t, abi.Reject(pc.req.refused)})
	default:
		st.start(t, pc)
	}
	return t, nil
}

// nestedCallPrefix begins every nested call's id:
// tool_search_code:<exec call id>:<tool name>:<seq>. It is the contract's
// wire format (trajectories, pending tool calls and hooks show it, and
// clients match it): never change it.
const nestedCallPrefix = "tool_search_code:"

// nextCallID is the id of the run's next nested call (or note) of name.
func (st *state) nextCallID(name string) string {
	if st.idPrefix == "" {
		st.idPrefix = nestedCallPrefix + sanitizeID(st.parent) + ":"
	}
	st.seq++
	return st.idPrefix + name + ":" + strconv.Itoa(st.seq)
}

func (st *state) start(t abi.Ticket, pc *pendingCall) {
	pc.deferred = false
	if pc.kind == kindTimer {
		st.armTimer(pc.timer)
		return
	}
	done, calls := st.done, st.calls
	st.run.rt.workers.run(func() {
		out := st.run.answer(calls, st, pc)
		select { // a run that ended takes no more results
		case done <- settled{t, out}:
		case <-calls.Done():
		}
	})
}

// undelivered counts the requests that hold a slot of maxPendingToolCalls:
// host work in flight (nested calls, catalog reads, store, load) and
// refusals not yet delivered into the cell. Timers and yields have bounds
// of their own.
// Children of agents.run have bounds of their own (swarm.go).
func (st *state) undelivered() int {
	n := 0
	for _, pc := range st.pending {
		if (pc.kind == kindCall || pc.kind == kindLocal) && pc.op != bridge.Agent {
			n++
		}
	}
	return n
}

// callsInFlight counts the pending host work that keeps a returned cell from
// completing: nested calls, catalog reads, store and load. Timers are not
// among them: a cell's return ends them.
func (st *state) callsInFlight() int { return st.pendingOf(kindCall) }

// pendingOf counts the pending requests of the given kinds.
func (st *state) pendingOf(kinds ...callKind) int {
	n := 0
	for _, pc := range st.pending {
		if slices.Contains(kinds, pc.kind) {
			n++
		}
	}
	return n
}

// Emit implements abi.Host, enforcing maxOutputBytes over the items.
func (st *state) Emit(kind abi.OutputKind, payload string) error {
	o := Output{Type: "text", Text: payload}
	if kind == abi.OutputJSON {
		o = Output{Type: "json", Value: json.RawMessage(wellFormed(payload))}
	}
	b, err := json.Marshal(o)
	if err != nil { // the bridge's encoder gives JSON, but Go's has a depth limit
		st.outputTooDeep = true
		return tool.Message(msgTooDeep)
	}
	if st.outputBytes+len(b) > st.run.rt.bounds.MaxOutputBytes {
		if st.outputTooLong == "" {
			st.outputTooLong = st.run.overflow(fmt.Sprintf("a %s item of %d bytes after %d bytes of output", o.Type, len(b), st.outputBytes), payload)
		}
		return errors.New(st.outputTooLong)
	}
	st.outputBytes += len(b)
	st.output = append(st.output, o)
	return nil
}

// ShouldInterrupt implements abi.Host.
func (st *state) ShouldInterrupt() abi.Interrupt {
	if st.abort.Err() != nil {
		return abi.InterruptAbort
	}
	if time.Now().After(st.deadline) {
		return abi.InterruptDeadline
	}
	return abi.InterruptNone
}

var unsafeIDChars = regexp.MustCompile(`[^A-Za-z0-9_.:-]+`)

func sanitizeID(s string) string {
	s = unsafeIDChars.ReplaceAllString(s, "_")
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}

func (run *Run) limits() abi.Limits {
	return abi.Limits{MemoryBytes: uint32(run.rt.bounds.MemoryLimitBytes)}
}

// Exec runs one exec call. callID is the model's tool-call id for it; args is
// the tool's JSON input. Failures the model should see are failed results.
func (run *Run) Exec(ctx context.Context, callID string, args json.RawMessage) Result {
	if !run.active {
		return run.failed(abi.CodeInvalidInput, "", msgDisabled)
	}
	return run.cell(ctx, callID, args, false)
}

// cell runs an exec, or with once a tool_search_code call, whose cell
// never parks.
func (run *Run) cell(ctx context.Context, callID string, args json.RawMessage, once bool) Result {
	kind, name := tool.KindCodeModeExec, "exec"
	if once {
		kind, name = tool.KindToolSearch, "tool_search_code"
	}
	in, err := source.ParseInput(args)
	if err != nil {
		return run.inputFailure(err)
	}
	if before := run.rt.hooks.BeforeToolCall; before != nil {
		d := before(ctx, tool.Event{ToolKind: kind, ToolInputKind: in.Language, ToolName: name,
			CallID: callID, Input: args, Scope: run.opts.Scope})
		if d.Block {
			return run.failed(abi.CodeInvalidInput, ReasonBlocked, name+" was blocked before execution: "+d.Reason)
		}
		if d.Input != nil {
			if in, err = source.ParseInput(d.Input); err != nil {
				return run.inputFailure(err)
			}
		}
	}
	if once && in.RestartSafe {
		return run.failed(abi.CodeInvalidInput, "", "restartSafe is an exec option: tool_search_code bodies never suspend, so there is nothing to replay.")
	}
	// The source check runs in the cell's slot and within its deadline: in
	// a parser process where it needs esbuild, which a burst of hostile
	// cells must not multiply past the slots.
	deadline := time.Now().Add(run.rt.bounds.Timeout)
	release, ok := run.admit(ctx, deadline)
	if !ok {
		if ctx.Err() != nil {
			return run.failed(abi.CodeAborted, "", msgAborted)
		}
		return run.failed(abi.CodeRuntimeUnavailable, ReasonBusy, run.busyMessage())
	}
	js, srcMap, err := run.checkSource(ctx, in, deadline)
	if err != nil {
		release()
		return run.checkFailure(ctx, err)
	}
	st := run.newState(callID)
	st.once = once
	st.pos.ts = srcMap
	if srcMap.TypeScript() && in.Language != source.TypeScript {
		st.ranAs = source.TypeScript
	}
	st.abort, st.deadline = ctx, deadline
	if st.restartSafe = in.RestartSafe; st.restartSafe {
		st.replayID = replayID(run.opts, callID, in.Code)
	}
	ns, nsSetup, err := run.createNamespaces(ctx)
	if err != nil {
		release()
		st.cancel()
		return run.failed(abi.CodeInternalError, ReasonNamespaceScope, err.Error())
	}
	st.namespaces = ns
	nsJSON, _ := json.Marshal(nsSetup)
	return st.bounded(func() Result {
		defer release()
		return run.execLeg(st.engineCtx(ctx), st, js, nsJSON)
	})
}

func (run *Run) checkSource(ctx context.Context, in source.Input, deadline time.Time) (string, *source.Map, error) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	// The parsers are shared like the cell slots: by session.
	langs := make([]string, len(run.rt.bounds.Languages))
	for i, l := range run.rt.bounds.Languages {
		langs[i] = string(l)
	}
	return source.Check(ctx, sessionKey(run.opts.Scope), in.Code, in.Language, langs)
}

// checkFailure is the result of a cell whose source check did not pass.
func (run *Run) checkFailure(ctx context.Context, err error) Result {
	switch {
	case ctx.Err() != nil:
		return run.failed(abi.CodeAborted, "", msgAborted)
	case errors.Is(err, context.DeadlineExceeded):
		return run.failed(abi.CodeTimeout, ReasonSourceCheck, msgSourceTimeout)
	case errors.Is(err, source.ErrParserUnavailable):
		return run.failed(abi.CodeRuntimeUnavailable, "", "code mode runtime unavailable: "+err.Error())
	}
	return run.inputFailure(err)
}

// execLeg runs a new cell, in the slot its caller holds, until it finishes
// or parks.
func (run *Run) execLeg(ctx context.Context, st *state, js string, nsJSON []byte) Result {
	cell, err := run.rt.engine.NewCell(ctx, run.limits(), st)
	if err != nil {
		st.cancel()
		return run.failed(abi.CodeRuntimeUnavailable, "", "code mode runtime unavailable: "+err.Error())
	}
	defer cell.Close(ctx)
	step := cell.Run(ctx, st.pos.prefixed("__cm_setup("+run.tab.GuestSetup().Args(js)+","+bridge.Quote(string(nsJSON))+run.rt.swarmSetup()+");", js), cellFile)
	return st.drive(ctx, cell, step)
}

func (run *Run) inputFailure(err error) Result {
	var se *source.Error
	if errors.As(err, &se) {
		return run.failed(abi.CodeInvalidInput, Reason(se.Reason), se.Message)
	}
	return run.failed(abi.CodeInvalidInput, "", err.Error())
}

// drive settles the cell's requests as they complete until it finishes, the
// deadline passes (park), a yield is pending (park) or the caller aborts.
func (st *state) drive(ctx context.Context, cell abi.Cell, step abi.Step) Result {
	run := st.run
	timer := time.NewTimer(time.Until(st.deadline))
	defer timer.Stop()
	for {
		switch step.Status {
		case abi.StepCompleted:
			// A cell that returned with calls still in flight has pending
			// work: it completes once they settle, or parks like any other.
			// A yield nobody awaits is no work: it only offered a turn. Nor
			// is a timer: the cell's return cancels it, so an interval
			// never keeps a finished cell alive.
			st.endTimers()
			if st.callsInFlight() == 0 {
				return st.finish(run.completed(st, step.Value))
			}
		case abi.StepFailed:
			if r, bad := st.outputFailure(); bad { // the guest did not catch it
				return st.finish(r)
			}
			return st.finish(st.failure(step.Failure))
		}
		if len(st.pending) == 0 {
			return st.finish(run.failed(abi.CodeInternalError, "", msgNoHostWork))
		}
		if len(st.ready) > 0 { // results collected by wait, or refusals, in order
			if !st.once && time.Until(st.deadline) < run.rt.resumeBudget() {
				if st.restartSafe {
					return st.parkRestartSafe(ctx, cell)
				}
				return st.park(ctx, cell)
			}
			s := st.ready[0]
			st.ready = st.ready[1:]
			if st.pending[s.ticket] != nil {
				step = st.deliver(ctx, cell, s)
			}
			continue
		}
		if st.restartSafe {
			return st.parkRestartSafe(ctx, cell)
		}
		if st.hasYield() {
			return st.park(ctx, cell)
		}
		select {
		case s := <-st.done:
			if st.pending[s.ticket] == nil {
				continue // a timer the cell's return ended
			}
			// Resuming with less than the resume budget left would let a
			// call's side effects turn into a timeout: park with it instead.
			if !st.once && time.Until(st.deadline) < run.rt.resumeBudget() {
				st.ready = append(st.ready, s)
				return st.park(ctx, cell)
			}
			step = st.deliver(ctx, cell, s)
		case <-timer.C:
			return st.park(ctx, cell)
		case <-ctx.Done():
			return st.finish(run.failed(abi.CodeAborted, "", msgAborted))
		}
	}
}

func (st *state) hasYield() bool {
	for _, pc := range st.pending {
		if pc.kind == kindYield {
			return true
		}
	}
	return false
}

func (st *state) deliver(ctx context.Context, cell abi.Cell, s settled) abi.Step {
	if pc := st.pending[s.ticket]; pc != nil && pc.kind == kindTimer && st.timers[pc.timer.id] == pc.timer {
		delete(st.timers, pc.timer.id)
	}
	delete(st.pending, s.ticket)
	return cell.Settle(ctx, s.ticket, s.outcome)
}

// overflow words an output_limit_exceeded message: what broke the limit and
// how it starts, so the model sees what to cut.
func (run *Run) overflow(what, payload string) string {
	head := bridge.Truncate(payload, 80)
	return fmt.Sprintf("%s: %s would pass maxOutputBytes (%d); it starts %q. Return or print less: a summary, a slice, or only the fields you need.",
		msgOutputLimit, what, run.rt.bounds.MaxOutputBytes, head)
}

// outputFailure is the result of a run whose output broke a limit: it fails
// whether or not the guest caught the error its text() or json() threw.
func (st *state) outputFailure() (Result, bool) {
	switch {
	case st.outputTooLong != "":
		return st.run.failed(abi.CodeOutputLimitExceeded, "", st.outputTooLong), true
	case st.outputTooDeep:
		return st.run.failed(abi.CodeOutputLimitExceeded, ReasonTooDeep, msgTooDeep), true
	}
	return Result{}, false
}

// completed checks the output and value limits.
func (run *Run) completed(st *state, value string) Result {
	if r, bad := st.outputFailure(); bad {
		return r
	}
	if len(value) > run.rt.bounds.MaxOutputBytes {
		return run.failed(abi.CodeOutputLimitExceeded, "", run.overflow(fmt.Sprintf("the return value, %d bytes of JSON,", len(value)), value))
	}
	r := Result{Status: StatusCompleted, Value: json.RawMessage(wellFormed(value)), Telemetry: run.telemetry()}
	if !json.Valid(r.Value) { // the bridge's encoder gives JSON, but Go's has a depth limit
		return run.failed(abi.CodeOutputLimitExceeded, ReasonTooDeep, msgTooDeep)
	}
	return r
}

// finish ends the run: outstanding calls are cancelled and the run leaves the
// store. It attaches the output produced since the previous result.
func (st *state) finish(r Result) Result {
	st.cancel()
	st.run.rt.store.remove(st)
	if st.id != "" && st.run.rt.runs != nil {
		if err := st.run.rt.runs.Remove(context.Background(), st.id); err != nil {
			st.run.rt.logger.Warn("code mode run store: an ended run was not removed", "run", st.id, "err", err)
		}
	}
	st.image = nil
	return st.withOutput(r)
}

func (st *state) withOutput(r Result) Result {
	st.swarm.Notes.Flush() // a leg's phases and logs reach the listener before its result
	r.ReplaySafe = st.restartSafe
	r.Telemetry.RanAs = st.ranAs
	r.Output = st.output
	st.output = nil
	return r
}

// park snapshots the cell and stores the run for wait.
func (st *state) park(ctx context.Context, cell abi.Cell) Result {
	run := st.run
	if st.abandoned.Load() {
		return st.finish(run.failed(abi.CodeTimeout, "", msgTimeout))
	}
	if ctx.Err() != nil {
		return st.finish(run.failed(abi.CodeAborted, "", msgAborted))
	}
	if r, bad := st.outputFailure(); bad {
		return st.finish(r)
	}
	if st.once {
		return st.finish(st.noWait())
	}
	img, err := cell.Snapshot(ctx)
	if err != nil {
		return st.finish(run.failed(abi.CodeInternalError, "", "code mode snapshot failed: "+err.Error()))
	}
	if len(img) > run.rt.bounds.MaxSnapshotBytes {
		return st.finish(run.failed(abi.CodeSnapshotLimitExceeded, "", msgSnapshotLimit))
	}
	st.image = img
	if st.id == "" {
		st.id = newRunID()
	}
	if run.rt.runs != nil {
		return st.parkShared(ctx)
	}
	if err := run.rt.store.park(st, run.rt.bounds.SnapshotTTL); err != nil {
		return st.finish(run.failed(abi.CodeInvalidInput, "", err.Error()))
	}
	return st.withOutput(st.waiting())
}

func (st *state) waiting() Result {
	r := Result{Status: StatusWaiting, RunID: st.id, ReplayID: st.replayID, Reason: ReasonPendingTools, Telemetry: st.run.telemetry()}
	yields := 0
	delivered := map[abi.Ticket]bool{}
	for _, s := range st.ready {
		delivered[s.ticket] = true
	}
	for t := abi.Ticket(1); t <= st.next; t++ {
		pc, ok := st.pending[t]
		if !ok || delivered[t] || pc.kind == kindLocal {
			continue
		}
		if pc.kind == kindYield {
			yields++
		}
		r.PendingToolCalls = append(r.PendingToolCalls, PendingToolCall{ID: pc.id, Method: pc.method})
	}
	if yields > 0 && yields == len(r.PendingToolCalls) {
		r.Reason = ReasonYield
	}
	return r
}

func newRunID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("cm_%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Messages of restart-safe refusals.
const (
	msgRestartSafeNamespace  = "restart-safe code mode cannot call plugin namespaces."
	msgRestartSafeSideEffect = "restart-safe code mode cannot call side-effecting tools."
	msgRestartSafeStore      = "restart-safe code mode cannot store values: store is read-only in restart-safe cells."
)

// parkRestartSafe refuses a restart-safe run whose pending work is not
// replay-safe before any of it ran, and otherwise parks it without draining.
// The namespace message is for a cell whose every pending request is a plugin
// namespace call; a namespace call pending beside anything else (a look-up, a
// yield, a timer, a replay-safe call) is refused as a side effect. A cleared
// timer's delivery is no request.
func (st *state) parkRestartSafe(ctx context.Context, cell abi.Cell) Result {
	requests, namespaces, stores, unsafe := 0, 0, 0, 0
	for _, pc := range st.pending {
		if pc.kind != kindLocal {
			requests++
		}
		if pc.kind == kindCall && pc.op == bridge.Namespace {
			namespaces++
		}
		switch {
		case pc.kind != kindCall || pc.replaySafe:
		case pc.op == bridge.Store:
			stores++
			unsafe++
		default:
			unsafe++
		}
	}
	switch {
	case namespaces > 0 && namespaces == requests:
		return st.finish(st.run.failed(abi.CodeInvalidInput, ReasonRestartSafe, msgRestartSafeNamespace))
	case stores > 0 && stores == unsafe:
		return st.finish(st.run.failed(abi.CodeInvalidInput, ReasonRestartSafe, msgRestartSafeStore))
	case unsafe > 0:
		return st.finish(st.run.failed(abi.CodeInvalidInput, ReasonRestartSafe, msgRestartSafeSideEffect))
	}
	return st.park(ctx, cell)
}

// replayID names a restart-safe exec for recovery from the transcript: the
// same exec in the same turn gets the same id, a reused tool-call id in
// another turn does not.
func replayID(o RunOptions, callID, code string) string {
	b, _ := json.Marshal([]string{o.Scope.SessionKey, o.Scope.SessionID, o.Scope.RunID, o.TurnID, callID, code})
	sum := sha256.Sum256(b)
	return "cm_replay_" + hex.EncodeToString(sum[:])[:24]
}

// legGrace is how long past its deadline an exec or wait leg may run before
// the caller gets a timeout without it. The engine stops any guest code half
// a second past its deadline; this backstop is for the rest (an engine that
// cannot, a host callback that blocks). The leg then finishes in the
// background and its run is dropped. It is generous because an overloaded
// host also runs legs late.
const legGrace = 10 * time.Second

// bounded runs a leg on its own goroutine and returns its result, or a
// timeout once the leg overruns its deadline by legGrace.
func (st *state) bounded(leg func() Result) Result {
	done := make(chan Result, 1)
	go func() {
		r := leg()
		if st.abandoned.Load() && r.Status == StatusWaiting {
			st.finish(r) // parked just as its caller gave up: drop it
		}
		done <- r
	}()
	timer := time.NewTimer(time.Until(st.deadline) + st.run.rt.legGrace)
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		st.abandoned.Store(true)
		st.cancel()
		return st.run.failed(abi.CodeTimeout, ReasonLegOverrun, msgTimeout)
	}
}

// deadlineCtx gives engine calls the leg's deadline, so the engine knows
// when to stop a call that overran, without a timer per call.
type deadlineCtx struct {
	context.Context
	deadline time.Time
}

func (c deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func (st *state) engineCtx(ctx context.Context) context.Context { return deadlineCtx{ctx, st.deadline} }
