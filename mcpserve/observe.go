package mcpserve

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/tool"
)

// Observer joins what the host's hooks decide about each nested call
// (denied, approved, refused) to the trajectory record the service gets when
// the call ends, for logs, metrics and the audit trail. Install its
// [Observer.Hooks] in the runtime and pass it as [Options.Observer].
//
// With a Tracer it also traces serve: see trace.go for the span tree.
type Observer struct {
	// Tracer, when set, gets a span per MCP request, cell leg and nested
	// call. Set it before Hooks is called.
	Tracer trace.TracerProvider
	// TraceContent puts cell code and nested calls' arguments (and their
	// errors' text) in spans, cut to 4 KiB: they may hold secrets a cell
	// was given. Off, spans carry ids, names, statuses and sizes only.
	TraceContent bool
	// Engine names the engine cells run on, for leg spans.
	Engine string

	tr        tracing
	mu        sync.Mutex
	decisions map[callKey]string // decision, until the call's record
}

// callKey names a nested call in a process: its id is unique within its
// run only, and a run resumed from a store keeps the ids another replica
// gave it, so two sessions may hold the same id.
type callKey struct{ session, call string }

// maxDecisions bounds the decisions kept for records that never came (a
// call abandoned with its run); past it, arbitrary ones are dropped, and
// those calls are reported by the default rule (see decision).
const maxDecisions = 4096

// Hooks wraps h so that the observer sees its verdicts.
func (o *Observer) Hooks(h tool.Hooks) tool.Hooks {
	out := h
	if before := h.BeforeToolCall; before != nil || o.tracer() != nil {
		out.BeforeToolCall = func(ctx context.Context, e tool.Event) tool.Decision {
			o.startCall(ctx, e)
			if before == nil {
				return tool.Decision{}
			}
			d := before(ctx, e)
			if d.Block {
				o.note(e, ops.DecisionDenied)
			}
			return d
		}
	}
	if approve := h.Approve; approve != nil {
		out.Approve = func(ctx context.Context, e tool.Event) (bool, string, error) {
			ok, reason, err := approve(ctx, e)
			d := ops.DecisionRefused
			if ok && err == nil {
				d = ops.DecisionApproved
			}
			o.note(e, d)
			o.approval(e, d)
			return ok, reason, err
		}
	}
	after := h.AfterToolCall
	out.AfterToolCall = func(ctx context.Context, e tool.Event, res tool.Result, err error) {
		o.note(e, ops.DecisionAllowed) // keeps an approval
		if after != nil {
			after(ctx, e, res, err)
		}
	}
	return out
}

func (o *Observer) note(e tool.Event, decision string) {
	if e.ToolKind != tool.KindNested {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.decisions == nil {
		o.decisions = map[callKey]string{}
	}
	k := callKey{e.Scope.SessionID, e.CallID}
	if decision == ops.DecisionAllowed && o.decisions[k] != "" {
		return
	}
	for id := range o.decisions {
		if len(o.decisions) < maxDecisions {
			break
		}
		delete(o.decisions, id)
	}
	o.decisions[k] = decision
}

// decision takes the verdict on a finished call of session. A call no
// hook saw through was stopped by the host before its tool ran (approval
// needed and no approver, a bad output schema): denied.
func (o *Observer) decision(session string, c host.NestedCall) string {
	if o != nil {
		k := callKey{session, c.ID}
		o.mu.Lock()
		d, ok := o.decisions[k]
		delete(o.decisions, k)
		o.mu.Unlock()
		if ok {
			return d
		}
	}
	if c.Error == "" || o == nil {
		return ops.DecisionAllowed
	}
	return ops.DecisionDenied
}

// leg observes one exec, wait or tool_search_code call: its nested calls
// as they finish, then its result. Records of calls that finish before
// the leg has a run id wait for it, so that each carries the run id when
// the run parked.
type leg struct {
	s         *service
	kind      string
	sess      *session
	principal string
	callID    string
	start     time.Time
	code      []byte // the cell's source, hashed for the audit trail, in spans with TraceContent

	// Tracing: the leg's span, the request context under it, and the
	// call id of the exec that started the leg's run.
	span trace.Span
	ctx  context.Context
	exec string

	mu    sync.Mutex
	run   *host.Run // for the catalog: a call's server
	runID string
	ended bool
	held  []host.NestedCall
}

func (s *service) beginLeg(ctx context.Context, kind string, sess *session, req *sdk.CallToolRequest, callID string, args json.RawMessage) *leg {
	l := &leg{s: s, kind: kind, sess: sess, principal: principal(req), callID: callID, start: time.Now()}
	if kind == "wait" {
		var in struct {
			RunID string `json:"runId"`
		}
		json.Unmarshal(args, &in)
		l.runID = boundID(in.RunID)
	} else if s.opts.Audit != nil || s.opts.Observer != nil && s.opts.Observer.TraceContent {
		var in struct {
			Code string `json:"code"`
		}
		json.Unmarshal(args, &in)
		l.code = []byte(in.Code)
	}
	s.opts.Metrics.LegStarted(kind)
	if t := s.opts.Observer.tracer(); t != nil {
		l.ctx = l.startLeg(ctx, t)
	}
	return l
}

// maxIDBytes bounds a caller's runId as logs and the trail keep it: the
// host's are 39 bytes, and a wait may name anything.
const maxIDBytes = 128

func boundID(id string) string {
	if len(id) <= maxIDBytes {
		return id
	}
	return "sha256:" + ops.Digest([]byte(id))
}

// trajectory is the leg's listener, after the session's own.
func (l *leg) trajectory(next func(host.NestedCall)) func(host.NestedCall) {
	return func(c host.NestedCall) {
		next(c)
		if c.Method == "phase" || c.Method == "log" { // notes of tools.swarm, not calls
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if !l.ended {
			l.held = append(l.held, c)
			return
		}
		l.call(c)
	}
}

// call reports one nested call; l.mu is held.
func (l *leg) call(c host.NestedCall) {
	s := l.s
	decision, server := s.opts.Observer.decision(l.sess.id, c), l.server(c)
	outcome := ops.OutcomeOK
	if c.Error != "" {
		outcome = ops.OutcomeError
	}
	s.opts.Metrics.NestedCall(server, decision, outcome, c.Duration)
	s.opts.Observer.endCall(l.sess.id, c, server, decision, outcome)
	attrs := []any{"session", l.sess.id, "run", l.runID, "call", l.callID, "tool", c.ToolID, "decision", decision, "outcome", outcome}
	attrs = l.traceAttrs(attrs)
	if decision == ops.DecisionApproved || decision == ops.DecisionRefused {
		s.logger.Info("approval decision", attrs...)
	} else {
		s.logger.Debug("nested call", append(attrs, "duration_ms", ms(c.Duration))...)
	}
	if s.opts.Audit == nil {
		return
	}
	s.audit(ops.Record{Time: c.Start.Add(c.Duration).UTC(), Kind: "call", Principal: l.principal, Session: l.sess.id, Run: l.runID,
		Call: c.ID, Parent: l.callID, Tool: c.ToolID, Server: server, ArgsSHA256: ops.Digest(c.Input), ArgsBytes: len(c.Input),
		Decision: decision, Outcome: outcome, DurationMs: ms(c.Duration)})
}

// server is the source a call went to: its catalog entry's (core, a
// plugin, an MCP server, a client), "agents" for a sub-agent, else
// "unknown". Never text the cell chose: the catalog bounds it.
func (l *leg) server(c host.NestedCall) string {
	if c.Method == "agents.run" {
		return "agents"
	}
	if l.run != nil {
		if e, ok := l.run.Catalog().Lookup(c.ToolID); ok {
			return e.SourceName
		}
		if rest, ok := strings.CutPrefix(c.ToolID, "mcp:"); ok { // an MCP server's resources or prompts
			server, _, _ := strings.Cut(rest, ":")
			for _, name := range l.run.MCPServers() {
				if name == server {
					return server
				}
			}
		}
	}
	return "unknown"
}

// end reports the leg's result, after the calls it held.
func (l *leg) end(r host.Result) {
	d := time.Since(l.start)
	l.mu.Lock()
	if r.RunID != "" {
		l.runID = r.RunID
	}
	l.ended = true
	for _, c := range l.held {
		l.call(c)
	}
	l.held = nil
	runID := l.runID
	l.mu.Unlock()
	l.endLeg(r, runID)
	s := l.s
	busy := r.Code == abi.CodeRuntimeUnavailable && r.Reason == "busy"
	s.opts.Metrics.LegFinished(l.kind, r.Status.String(), string(r.Code), busy, d)
	bytes := len(r.Value)
	for _, o := range r.Output {
		bytes += len(o.Text) + len(o.Value)
	}
	attrs := []any{"kind", l.kind, "session", l.sess.id, "run", runID, "call", l.callID, "status", r.Status.String(),
		"duration_ms", ms(d), "nested_calls", r.Telemetry.CallCount}
	if r.Status == host.StatusFailed {
		attrs = append(attrs, "code", string(r.Code), "reason", r.Reason.String())
	}
	if l.principal != "" {
		attrs = append(attrs, "principal", l.principal)
	}
	attrs = l.traceAttrs(attrs)
	s.logger.Info("cell leg", attrs...)
	if s.opts.Audit == nil {
		return
	}
	rec := ops.Record{Kind: l.kind, Principal: l.principal, Session: l.sess.id, Run: runID, Call: l.callID,
		Status: r.Status.String(), ErrorCode: string(r.Code), ResultBytes: bytes, DurationMs: ms(d)}
	if l.kind != "wait" {
		rec.CodeSHA256, rec.CodeBytes = ops.Digest(l.code), len(l.code)
	}
	s.audit(rec)
}

func (s *service) audit(rec ops.Record) {
	if err := s.opts.Audit.Append(rec); err != nil {
		s.opts.Metrics.AuditError()
		s.logger.Error("audit record lost", "kind", rec.Kind, "session", rec.Session, "run", rec.Run, "error", err)
	}
}

// ms is a duration in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// gauges are the session and parked-run levels of a scrape.
func (s *service) gauges() ops.Gauges {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := ops.Gauges{Sessions: len(s.sessions) + len(s.principals)}
	for _, sess := range s.sessions {
		g.ParkedRuns += len(sess.parked)
	}
	for _, sess := range s.principals {
		g.ParkedRuns += len(sess.parked)
	}
	return g
}
