package mcpserve

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
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
	sessions map[*sdk.ServerSession]string
	calls    atomic.Int64
}

func newService(rt *host.Runtime, o *Options) (*service, error) {
	s := &service{rt: rt, opts: o, logger: o.Logger, defs: map[string]string{}, sessions: map[*sdk.ServerSession]string{}}
	s.server = sdk.NewServer(&sdk.Implementation{Name: "codemode", Version: "0.1.0"}, &sdk.ServerOptions{
		Logger:                    o.Logger,
		Capabilities:              &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
		SupportedProtocolVersions: protocolVersions,
	})
	if _, err := s.sync(); err != nil {
		return nil, err
	}
	s.server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				if _, err := s.sync(); err != nil {
					return nil, err
				}
			}
			return next(ctx, method, req)
		}
	})
	return s, nil
}

// sync prepares a run and makes the server's tools match its model-visible
// tools, so a downstream tools/list_changed reaches MCP clients as a new exec
// description (and a list_changed of our own).
func (s *service) sync() (*host.Run, error) {
	run, err := s.rt.Prepare(host.RunOptions{Scope: host.Scope{SessionID: "tools/list", RunID: "tools/list"}})
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
		schema := d.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		s.server.AddTool(&sdk.Tool{Name: d.Name, Description: d.Description, InputSchema: schema}, s.handler(d.Name))
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

// scope is the run scope of an MCP session: a random id minted on the
// session's first call and forgotten when it ends.
func (s *service) scope(ss *sdk.ServerSession) host.Scope {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.sessions[ss]
	if !ok {
		var b [12]byte
		rand.Read(b[:])
		id = "mcp_" + hex.EncodeToString(b[:])
		s.sessions[ss] = id
		go func() {
			ss.Wait()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
			s.rt.EndSession(id, id) // the session's parked runs end with it
		}()
	}
	return host.Scope{SessionID: id, SessionKey: id, RunID: id}
}

func (s *service) handler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := req.Params.Arguments
		if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		callID := fmt.Sprintf("mcp_call_%d", s.calls.Add(1))
		p := newProgress(ctx, req)
		defer p.stop()
		run, err := s.rt.Prepare(host.RunOptions{Scope: s.scope(req.Session), Trajectory: p.nested})
		if err != nil {
			return errorResult("code mode run unavailable: " + err.Error()), nil
		}
		switch name {
		case "exec":
			return result(run.Exec(ctx, callID, args)), nil
		case "wait":
			return result(run.Wait(ctx, args)), nil
		}
		return s.direct(ctx, run, name, callID, args)
	}
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
	var out sdk.CallToolResult
	if err := json.Unmarshal(b, &out); err != nil {
		return errorResult("tool result is not an MCP result: " + err.Error()), nil
	}
	return &out, nil
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
