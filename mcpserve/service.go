package mcpserve

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// protocolVersions are the versions offered to clients: those with the
// initialize handshake and sessions. The contract scopes wait to a session,
// and 2026-07-28 is sessionless.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// heartbeat is the interval of progress notifications while a cell runs.
const heartbeat = time.Second

// service is one MCP server over a runtime: the tool set mirrors a prepared
// run's surface, refreshed before each tools/list and tools/call.
type service struct {
	rt     *host.Runtime
	opts   *Options
	logger *slog.Logger
	server *sdk.Server

	mu       sync.Mutex
	defs     map[string]string // registered tool name -> definition JSON
	routes   map[string]string // resource URI -> the downstream server that listed it
	sessions map[*sdk.ServerSession]*session
	// principals are the sessions of stateless serving, by principal.
	principals map[string]*session
	calls      atomic.Int64
	inflight   atomic.Int64 // tool calls being answered, for a drain

	// The drain (drain.go): draining from the start of a shutdown,
	// drained (ending with errDrained, by endLegs) at its deadline.
	draining atomic.Bool
	drained  context.Context
	endLegs  context.CancelFunc
}

func newService(rt *host.Runtime, o *Options) (*service, error) {
	s := &service{rt: rt, opts: o, logger: o.Logger, defs: map[string]string{}, sessions: map[*sdk.ServerSession]*session{}, principals: map[string]*session{}}
	s.drained, s.endLegs = context.WithCancel(context.Background())
	s.server = sdk.NewServer(&sdk.Implementation{Name: "codemode", Version: "0.1.0"}, &sdk.ServerOptions{
		Logger:                    sessionIDLogger(o.Logger),
		Capabilities:              capabilities(rt),
		SupportedProtocolVersions: protocolVersions,
	})
	if _, err := s.sync(); err != nil {
		return nil, err
	}
	if o.Relay != nil {
		o.Relay.bind(s)
	}
	o.Metrics.ReadGauges(s.gauges)
	s.server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				if _, err := s.sync(); err != nil {
					return nil, err
				}
			}
			if res, ok, err := s.passThrough(ctx, method, req); ok {
				return res, err
			}
			return next(ctx, method, req)
		}
	})
	if t := o.Observer.tracer(); t != nil { // outermost: passed-through requests are traced too
		s.server.AddReceivingMiddleware(s.traceRequests(t))
	}
	return s, nil
}

// capabilities are tools, and resources and prompts when the runtime has MCP
// servers behind it (see passThrough).
func capabilities(rt *host.Runtime) *sdk.ServerCapabilities {
	c := &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}
	if rt.ServesMCP() {
		c.Resources, c.Prompts = &sdk.ResourceCapabilities{}, &sdk.PromptCapabilities{}
	}
	return c
}

// sync prepares a run and makes the server's tools match its model-visible
// tools, so a downstream tools/list_changed reaches MCP clients as a new exec
// description (and a list_changed of our own).
func (s *service) sync() (*host.Run, error) {
	run, err := s.rt.Prepare(host.RunOptions{Scope: tool.Scope{SessionID: "tools/list", RunID: "tools/list"}})
	if err != nil {
		return nil, fmt.Errorf("prepare code mode run: %w", err)
	}
	defs := run.Tools()
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := map[string]bool{}
	for _, d := range defs {
		keep[d.Name] = true
		b, _ := json.Marshal(d)
		if s.defs[d.Name] == string(b) {
			continue
		}
		tool, err := sdkTool(d)
		if err != nil {
			s.logger.Warn("tool not served", "tool", d.Name, "error", err)
			continue
		}
		s.server.AddTool(tool, s.handler(d.Name))
		s.defs[d.Name] = string(b)
	}
	var gone []string
	for name := range s.defs {
		if !keep[name] {
			gone = append(gone, name)
			delete(s.defs, name)
		}
	}
	if len(gone) > 0 {
		s.server.RemoveTools(gone...)
	}
	return run, nil
}

// sdkTool is the MCP tool of a definition, every field passed on. The SDK
// panics on an input schema that is not an object schema, so such a tool
// (a registered Go tool's mistake; MCP servers' tools are checked when
// listed) is refused here instead.
func sdkTool(d host.ToolDefinition) (*sdk.Tool, error) {
	schema := d.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	var in struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(schema, &in) != nil || in.Type != "object" {
		return nil, errors.New(`its input schema is not a JSON Schema of "type": "object"`)
	}
	t := &sdk.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: schema}
	if len(d.OutputSchema) > 0 && json.Valid(d.OutputSchema) {
		t.OutputSchema = d.OutputSchema
	}
	if len(d.Annotations) > 0 {
		var a sdk.ToolAnnotations
		if json.Unmarshal(d.Annotations, &a) == nil {
			t.Annotations = &a
		}
	}
	return t, nil
}

// session is what the service keeps of an MCP session.
type session struct {
	id string
	// parked maps the runId of each run this session left waiting to the
	// Run whose exec started it: the only handle that can abort that run
	// when a later result of it cannot be sent.
	parked map[string]*host.Run

	mu     sync.Mutex
	active map[*progress]bool // exec and wait calls in flight with a progress token
}

// track adds a call's progress to the session's until the returned
// function is called.
func (s *session) track(p *progress) func() {
	if p.token == nil {
		return func() {}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		s.active = map[*progress]bool{}
	}
	s.active[p] = true
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.active, p)
	}
}

func (s *session) progressing() []*progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*progress, 0, len(s.active))
	for p := range s.active {
		out = append(out, p)
	}
	return out
}

// maxTracked bounds a session's parked map. The host parks at most 16 runs
// per session, and an entry goes when its run ends; what is left past the
// bound are runs that expired unwaited, which a random eviction may drop.
const maxTracked = 64

// session returns the record of an MCP session: a random id minted on the
// session's first call and forgotten, with its parked runs, when it ends
// (closed by the client, or idle past SessionIdle on HTTP).
//
// Stateless, every request has a session of its own: the record is then
// the principal's, one per principal, and never ends (its runs end with
// their TTL).
func (s *service) session(ss *sdk.ServerSession, principal string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.Stateless {
		id := "principal:" + principal
		sess := s.principals[id]
		if sess == nil {
			sess = &session{id: id, parked: map[string]*host.Run{}}
			s.principals[id] = sess
		}
		return sess
	}
	sess, ok := s.sessions[ss]
	if !ok {
		var b [12]byte
		rand.Read(b[:])
		sess = &session{id: "mcp_" + hex.EncodeToString(b[:]), parked: map[string]*host.Run{}}
		s.sessions[ss] = sess
		go func() {
			ss.Wait()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
			s.rt.EndSession(sess.id, sess.id) // the session's parked runs end with it
		}()
	}
	return sess
}

// scope is the run scope of a call: its session, and the authenticated
// principal (empty without a bearer token) as the agent.
func scope(sess *session, req *sdk.CallToolRequest) tool.Scope {
	p := principal(req)
	return tool.Scope{AgentID: p, SessionKey: sess.id, SessionID: sess.id, RunID: sess.id}
}

// principal is the authenticated principal of a request, "" without a
// bearer token.
func principal(req *sdk.CallToolRequest) string {
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		return req.Extra.TokenInfo.UserID
	}
	return ""
}

func (s *service) handler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		s.inflight.Add(1)
		defer s.inflight.Add(-1)
		args := req.Params.Arguments
		if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		callID := fmt.Sprintf("mcp_call_%d", s.calls.Add(1))
		p := newProgress(ctx, req)
		defer p.stop()
		sess := s.session(req.Session, principal(req))
		defer sess.track(p)()
		trajectory := sess.trajectory(p)
		var l *leg
		if name == "exec" || name == "wait" || name == "tool_search_code" {
			l = s.beginLeg(ctx, name, sess, req, callID, args)
			if s.draining.Load() {
				r := refuseDraining()
				l.end(r)
				return result(r), nil
			}
			var end func()
			ctx, end = s.legContext(l.context(ctx)) // under the leg's span, if any
			defer end()
			l.ctx = ctx
			trajectory = l.trajectory(trajectory)
		}
		run, err := s.rt.Prepare(host.RunOptions{Scope: scope(sess, req), Trajectory: trajectory})
		if err != nil {
			if l != nil {
				l.end(host.Result{Status: host.StatusFailed, Code: abi.CodeRuntimeUnavailable})
			}
			return errorResult("code mode run unavailable: " + err.Error()), nil
		}
		if l != nil {
			l.mu.Lock()
			l.run = run
			l.mu.Unlock()
		}
		var r host.Result
		switch name {
		case "exec":
			r = drainedResult(ctx, run.Exec(l.context(ctx), callID, args))
			l.end(r)
			return s.reply(sess, run, "", r), nil
		case "wait":
			var in struct {
				RunID string `json:"runId"`
			}
			json.Unmarshal(args, &in)
			r = drainedResult(ctx, run.Wait(l.context(ctx), args))
			l.end(r)
			return s.reply(sess, nil, in.RunID, r), nil
		case "tool_search_code":
			r = drainedResult(ctx, run.ToolSearchCode(l.context(ctx), callID, args))
			l.end(r)
			return s.reply(sess, nil, "", r), nil
		}
		res, err := s.direct(ctx, run, name, callID, args)
		if err == nil {
			if _, msg := unsendable(res); msg != "" {
				res = errorResult("tool result " + msg)
			}
		}
		return res, err
	}
}

// reply turns an exec (started by the Run exec) or wait (for runID) result
// into the MCP result, keeping the session's parked map current. A result
// that cannot be sent becomes a failed one, and a run it left waiting is
// aborted: the client will never learn its runId, and the run's pending calls
// must not go on behind a failure. (A run evicted from the map cannot be
// aborted; it ends with its TTL or its session.)
func (s *service) reply(sess *session, exec *host.Run, runID string, r host.Result) *sdk.CallToolResult {
	s.mu.Lock()
	owner := exec
	if owner == nil {
		owner = sess.parked[runID]
	}
	switch {
	case r.Status == host.StatusWaiting && owner != nil:
		for id := range sess.parked {
			if len(sess.parked) < maxTracked {
				break
			}
			delete(sess.parked, id)
		}
		sess.parked[r.RunID] = owner
	case runID != "" && r.Code != abi.CodeInvalidInput: // the run ended; a refused wait left it parked
		delete(sess.parked, runID)
	}
	s.mu.Unlock()
	r = s.redacted(r)
	res := result(r)
	code, msg := unsendable(res)
	if msg == "" {
		return res
	}
	if code == abi.CodeInternalError && deepOutput(r) { // too deep even to encode
		code, msg = abi.CodeOutputLimitExceeded, msgTooDeep
	}
	if r.Status == host.StatusWaiting && owner != nil {
		s.mu.Lock()
		delete(sess.parked, r.RunID)
		s.mu.Unlock()
		owner.Abort()
	}
	failed := host.Result{Status: host.StatusFailed, Code: code, Error: "code mode result " + msg,
		ReplaySafe: r.ReplaySafe, Telemetry: r.Telemetry}
	for _, o := range r.Output { // text cannot nest, so it still reaches the model
		if o.Type == "text" {
			failed.Output = append(failed.Output, o)
		}
	}
	return result(failed)
}

// direct runs a model-visible tool other than exec and wait and passes its
// result through.
func (s *service) direct(ctx context.Context, run *host.Run, name, callID string, args json.RawMessage) (*sdk.CallToolResult, error) {
	res, err := run.CallDirect(ctx, callID, name, args)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	// An MCP tool's details are the MCP result itself: pass it through.
	raw := map[string]any{"content": res.Content}
	if d, ok := res.Details.(map[string]any); ok && d["content"] != nil {
		raw = d
	} else if res.Details != nil {
		raw["structuredContent"] = res.Details
	}
	if raw["content"] == nil {
		raw["content"] = []any{}
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return errorResult("tool result is not JSON: " + err.Error()), nil
	}
	b = s.opts.Redact.JSON(b)
	var out sdk.CallToolResult
	if err := json.Unmarshal(b, &out); err != nil {
		return errorResult("tool result is not an MCP result: " + err.Error()), nil
	}
	return &out, nil
}

// maxMessageDepth is the deepest nesting of a JSON-RPC message that the
// go-sdk decodes: its reader refuses a deeper one, and a Go client that does
// drops the response and closes its session. encoding/json, which writes our
// responses, refuses past 10000 and the SDK then sends nothing at all; both
// would leave the caller without an answer, so both are caught here.
const maxMessageDepth = 1000

var msgTooDeep = fmt.Sprintf("cannot be sent: it nests deeper than the %d levels a JSON-RPC message may have; return or json() a flatter value, or a JSON.stringify'd string.", maxMessageDepth)

// unsendable says why res cannot go out as the result of a JSON-RPC
// response (a code and a message to follow "... result "), or "" if it can.
func unsendable(res *sdk.CallToolResult) (abi.ErrorCode, string) {
	b, err := json.Marshal(res)
	if err != nil {
		return abi.CodeInternalError, "cannot be encoded as JSON: " + err.Error()
	}
	if depth(b) >= maxMessageDepth { // the response object around it is one more level
		return abi.CodeOutputLimitExceeded, msgTooDeep
	}
	return "", ""
}

// deepOutput reports whether the value or a json() output of r nests deeper
// than a message may.
func deepOutput(r host.Result) bool {
	if depth(r.Value) >= maxMessageDepth {
		return true
	}
	for _, o := range r.Output {
		if o.Type == "json" && depth(o.Value) >= maxMessageDepth {
			return true
		}
	}
	return false
}

// depth is the deepest nesting of objects and arrays in JSON text, not
// counting brackets inside strings.
func depth(js []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range js {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}
}

// result is a CodeModeResult as an MCP tool result.
func result(r host.Result) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: render(r)}},
		StructuredContent: r,
		IsError:           r.Status == host.StatusFailed,
	}
}

// render is the text rendering for clients that read only content: the
// status, the cell's output and the value or error, without telemetry.
func render(r host.Result) string {
	var b strings.Builder
	switch r.Status {
	case host.StatusCompleted:
		b.WriteString("completed")
	case host.StatusWaiting:
		fmt.Fprintf(&b, "waiting (%s): call wait with {\"runId\":%q} to resume", r.Reason, r.RunID)
		for _, p := range r.PendingToolCalls {
			fmt.Fprintf(&b, "\npending: %s (%s)", p.ID, p.Method)
		}
	case host.StatusFailed:
		fmt.Fprintf(&b, "failed (%s): %s", string(r.Code), r.Error)
	}
	for _, o := range r.Output {
		b.WriteString("\n")
		if o.Type == "text" {
			b.WriteString(o.Text)
		} else {
			b.Write(o.Value)
		}
	}
	if r.Status == host.StatusCompleted {
		b.WriteString("\nvalue: ")
		if len(r.Value) == 0 {
			b.WriteString("null")
		}
		b.Write(r.Value)
	}
	return b.String()
}

// progress sends notifications/progress for one call when the client gave a
// progress token: one per finished nested call and a heartbeat.
type progress struct {
	ctx     context.Context
	session *sdk.ServerSession
	token   any
	n       atomic.Int64
	start   time.Time
	done    chan struct{}
	wg      sync.WaitGroup
}

func newProgress(ctx context.Context, req *sdk.CallToolRequest) *progress {
	p := &progress{ctx: ctx, session: req.Session, token: req.Params.GetProgressToken(), start: time.Now(), done: make(chan struct{})}
	if p.token == nil {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(heartbeat)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.send(fmt.Sprintf("running for %s", time.Since(p.start).Round(time.Second)))
			case <-p.done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return p
}

func (p *progress) nested(c host.NestedCall) {
	if p.token == nil {
		return
	}
	msg := fmt.Sprintf("nested call %s finished in %s", c.ToolID, c.Duration.Round(time.Millisecond))
	if c.Error != "" {
		msg = fmt.Sprintf("nested call %s failed", c.ToolID)
	}
	p.send(msg)
}

func (p *progress) send(msg string) {
	select {
	case <-p.done:
		return
	default:
	}
	n := p.n.Add(1)
	p.session.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: float64(n), Message: msg})
}

func (p *progress) stop() {
	close(p.done)
	p.wg.Wait()
}
