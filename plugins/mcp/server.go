package mcp

//lint:file-ignore SA1019 servers of 2025-11-25 and older log only when asked with logging/setLevel.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// Restart backoff: it doubles from minBackoff up to maxBackoff and starts
// over once a session has stayed up for stableAfter.
const (
	minBackoff  = 100 * time.Millisecond
	maxBackoff  = 30 * time.Second
	stableAfter = 10 * time.Second
	// terminateAfter is how long closing a stdio server waits after closing
	// its stdin before SIGTERM, and after SIGTERM before SIGKILL (the SDK's
	// CommandTransport waits 5 s).
	terminateAfter = 2 * time.Second
	// protocolVersion is the one negotiated with downstream servers: the last
	// version with the initialize handshake and session-scoped notifications
	// (tools/list_changed), which every reference server speaks.
	protocolVersion = "2025-11-25"
)

// server is one configured downstream server and its supervisor's state.
type server struct {
	c      *Client
	name   string
	cfg    ServerConfig
	direct map[string]bool
	first  chan struct{} // closed after the first connection attempt

	mu      sync.Mutex
	session *sdk.ClientSession // nil while down
	cmd     *exec.Cmd          // the running stdio process, if any
	down    error              // why the server is down
	tools   []tool.Tool
	closed  bool
	// connects counts successful connections: more than one means
	// reconnects.
	connects uint64

	refresh  chan struct{} // tools/list_changed, coalesced
	calls    inflight      // tools/call in flight, by scope, for the relay
	learn    *learner      // result shapes of tools without an output schema
	inFlight spans         // downstream spans in flight, for log events
	logLimit logLimit      // of its stderr and log messages, across restarts

	pins  pinState          // the last listing and what of it is held back (pins.go)
	proc  *process          // the last stdio process started; the supervisor's alone
	oauth auth.OAuthHandler // nil without OAuth; one per server, so tokens outlive reconnects
}

func newServer(c *Client, name string, cfg ServerConfig) *server {
	s := &server{c: c, name: name, cfg: cfg, direct: map[string]bool{}, first: make(chan struct{}),
		refresh: make(chan struct{}, 1), down: errors.New("not connected yet"),
		learn: &learner{server: name, store: c.shapes, tools: map[string]*learned{}}}
	for _, n := range cfg.DirectOnly {
		s.direct[n] = true
	}
	return s
}

func (s *server) log() *slog.Logger { return s.c.logger.With("server", s.name) }

// supervise connects, lists tools, waits for the session to end and
// reconnects with backoff until ctx is cancelled.
func (s *server) supervise(ctx context.Context) {
	backoff := minBackoff
	firstDone := false
	markFirst := func() {
		if !firstDone {
			firstDone = true
			close(s.first)
		}
	}
	defer markFirst()
	for ctx.Err() == nil {
		started := time.Now()
		err := s.connect(ctx)
		markFirst()
		if err == nil {
			err = s.serve(ctx)
		}
		if ctx.Err() != nil {
			return
		}
		s.setDown(err)
		if time.Since(started) >= stableAfter {
			backoff = minBackoff
		}
		if s.cfg.Transport != nil {
			s.log().Warn("MCP server disconnected; an in-process transport is not reconnected", "error", err)
			return
		}
		attrs := []any{"error", err, "backoff", backoff}
		if s.proc != nil {
			attrs = append(attrs, s.proc.failure()...)
		}
		s.log().Warn("MCP server down; restarting", attrs...)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// connect starts the server (or opens its HTTP session), initializes it and
// lists its tools.
func (s *server) connect(ctx context.Context) error {
	opts := &sdk.ClientOptions{
		// No roots, so servers never ask for them; elicitation and sampling
		// only with a relay (relayOptions).
		Capabilities: &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case s.refresh <- struct{}{}:
			default:
			}
		},
		LoggingMessageHandler: s.logMessage,
	}
	s.relayOptions(opts)
	client := sdk.NewClient(&sdk.Implementation{Name: "codemode", Version: "0.1.0"}, opts)
	if s.c.tracer != nil {
		client.AddSendingMiddleware(s.traceRequests)
	}
	var transport sdk.Transport
	var cmd *exec.Cmd
	switch {
	case s.cfg.Transport != nil:
		transport = s.cfg.Transport
	case s.cfg.URL != "" && s.cfg.SSE:
		transport = sseTransport{&sdk.SSEClientTransport{Endpoint: s.cfg.URL,
			HTTPClient: &http.Client{Transport: httpTransport{s.cfg.Headers}}}}
	case s.cfg.URL != "":
		transport = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, MaxRetries: 2,
			HTTPClient: &http.Client{Transport: httpTransport{s.cfg.Headers}}, OAuthHandler: s.oauth}
	default:
		s.proc = newProcess(s.cfg, s.log())
		s.proc.stderr.limit = &s.logLimit
		cmd = s.proc.cmd
		transport = &stdioTransport{proc: s.proc, logger: s.log()}
	}
	timeout := s.c.timeout
	if s.oauth != nil && s.cfg.OAuth.Visit != nil {
		// A person may be signing in in a browser.
		timeout = max(timeout, authorizeWait)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	session, err := client.Connect(cctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if res := session.InitializeResult(); res != nil && res.Capabilities != nil && res.Capabilities.Logging != nil {
		// Servers send no log messages until asked; they go into the log
		// (logs.go), and a client upstream that asks for them filters them
		// again by the level it set.
		if err := session.SetLoggingLevel(cctx, &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
			s.log().Debug("MCP server refused logging/setLevel", "error", err)
		}
	}
	s.learn.load(cctx)
	tools, err := s.listTools(cctx, session)
	if err != nil {
		session.Close()
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		session.Close()
		return errors.New("client closed")
	}
	s.session, s.cmd, s.tools, s.down = session, cmd, tools, nil
	s.connects++
	s.c.version.Add(1)
	s.mu.Unlock()
	s.log().Info("MCP server connected", "tools", len(tools))
	return nil
}

// serve refreshes the tool list on tools/list_changed until the session ends.
func (s *server) serve(ctx context.Context) error {
	s.mu.Lock()
	session := s.session
	s.mu.Unlock()
	if session == nil { // closed (or marked down) before the supervisor got here
		return errors.New("connection closed")
	}
	ended := make(chan error, 1)
	go func() { ended <- session.Wait() }()
	for {
		select {
		case err := <-ended:
			session.Close()
			if err == nil {
				err = errors.New("connection closed")
			}
			return err
		case <-ctx.Done():
			session.Close()
			return ctx.Err()
		case <-s.refresh:
			lctx, cancel := context.WithTimeout(ctx, s.c.timeout)
			tools, err := s.listTools(lctx, session)
			cancel()
			if err != nil {
				s.log().Warn("MCP tools/list after list_changed failed; keeping the previous list", "error", err)
				continue
			}
			s.mu.Lock()
			if s.session == session {
				s.tools = tools
				s.c.version.Add(1)
			}
			s.mu.Unlock()
			s.log().Info("MCP tool list refreshed", "tools", len(tools))
		}
	}
}

func (s *server) setDown(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != nil {
		s.session.Close()
	}
	s.session, s.cmd, s.down = nil, nil, err
}

// lost marks session down after a call saw its connection fail; the
// supervisor restarts the server when the session's Wait returns.
func (s *server) lost(session *sdk.ClientSession, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == session {
		s.session, s.down = nil, fmt.Errorf("connection lost: %w", err)
	}
}

func (s *server) closeSession() {
	s.mu.Lock()
	s.closed = true
	session := s.session
	s.session, s.cmd = nil, nil
	s.down = errors.New("client closed")
	s.mu.Unlock()
	if session != nil {
		session.Close()
	}
}

func (s *server) currentTools() []tool.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tools)
}

// current returns the live session, or a catchable error while the server
// is down.
func (s *server) current() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		return nil, fmt.Errorf("MCP server %s is unavailable (%v); it is being restarted, try again later", s.name, s.down)
	}
	return s.session, nil
}

// listTools reads every page of tools/list and turns each usable tool into a
// host tool; a tool with a broken schema or a duplicate name is dropped with a
// warning.
func (s *server) listTools(ctx context.Context, session *sdk.ClientSession) ([]tool.Tool, error) {
	var out []tool.Tool
	var defs []store.Definition
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page >= 1000 {
			return nil, errors.New("tools/list: more than 1000 pages")
		}
		res, err := session.ListTools(ctx, &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range res.Tools {
			if t == nil {
				continue
			}
			ht, err := s.hostTool(t)
			if err == nil && seen[t.Name] {
				err = errors.New("duplicate tool name")
			}
			if err != nil {
				s.log().Warn("MCP tool dropped", "tool", t.Name, "error", err)
				continue
			}
			seen[t.Name] = true
			out = append(out, ht)
			if s.c.pins != nil && s.cfg.Trust != TrustOff {
				defs = append(defs, definition(t))
			}
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			return s.vet(ctx, out, defs), nil
		}
		cursor = res.NextCursor
	}
}

func (s *server) hostTool(t *sdk.Tool) (tool.Tool, error) {
	if t.Name == "" {
		return tool.Tool{}, errors.New("empty tool name")
	}
	in, err := checkInputSchema(t.InputSchema)
	if err != nil {
		return tool.Tool{}, err
	}
	var out json.RawMessage
	if t.OutputSchema != nil {
		if b, err := json.Marshal(t.OutputSchema); err == nil && isObject(b) {
			out = b
		} // an unusable output schema is only a claim: drop the claim, keep the tool
	}
	label := t.Title
	var annotations json.RawMessage
	if t.Annotations != nil {
		if label == "" {
			label = t.Annotations.Title
		}
		annotations, _ = json.Marshal(t.Annotations)
	}
	name := t.Name
	key := ""
	var observed *tool.Observed
	if out == nil {
		key = s.learn.key(name, in)
		observed = s.learn.observed(key)
	}
	return tool.Tool{
		Name: name, Label: label, Description: t.Description, MCPServer: s.name,
		InputSchema: in, OutputSchema: out, Annotations: annotations, DirectOnly: s.direct[name], Observed: observed,
		Execute: func(ctx context.Context, call tool.Call) (tool.Result, error) {
			if err := s.withheld(name); err != nil {
				return tool.Result{}, err
			}
			ctx = s.c.callContext(ctx, call)
			token, end := s.calls.begin(call.Scope)
			defer end()
			return s.call(ctx, name, key, token, call.Input)
		},
	}, nil
}

// maxMessageBytes bounds one message from a streamable HTTP server: the
// SDK bounds stdio lines and SSE events to the same 16 MiB, but reads a JSON
// response body whole, so a server answering with 400 MB took the host there.
const maxMessageBytes = 16 << 20

// httpTransport adds configured headers to every request and bounds JSON
// response bodies (SSE streams are bounded per event by the SDK).
type httpTransport struct{ headers map[string]string }

func (h httpTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	r = traceHeader(r, len(h.headers) > 0)
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && !isEventStream(resp.Header.Get("Content-Type")) {
		resp.Body = &boundedBody{ReadCloser: resp.Body, left: maxMessageBytes}
	}
	return resp, err
}

// isEventStream reads a Content-Type the way the SDK does (case-insensitive,
// with parameters), so that every body it reads as JSON is bounded here.
func isEventStream(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/event-stream"
}

// errMessageTooLarge ends a response past maxMessageBytes.
var errMessageTooLarge = fmt.Errorf("MCP server response is larger than %d MiB", maxMessageBytes>>20)

type boundedBody struct {
	io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the bound from a longer one.
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, errMessageTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
