// Package mcp connects Code Mode to downstream MCP servers: their tools become
// catalog entries (mcp:<server>:<tool>) reached through the guest's MCP
// namespace, and their resources and prompts are served to
// MCP.<server>.resources and MCP.<server>.prompts.
//
// A [Client] is a [tool.MCPSource]: pass it in [host.Options].Sources. It
// starts every configured server once, in parallel, and keeps it connected:
// a server that exits is restarted with backoff, and a tools/list_changed
// notification refreshes its tool list for the runs prepared afterwards.
package mcp

//lint:file-ignore SA1019 the relay's hooks take the deprecated sampling and logging types, which downstream servers still send.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/redact"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// ServerConfig is one entry of the mcpServers map users already have in their
// MCP clients: Command (with Args, Env and Cwd) for a stdio server, or URL
// (with Headers) for a streamable HTTP server, or a legacy HTTP+SSE one with
// SSE. Exactly one of Command, URL and Transport must be set.
type ServerConfig struct {
	// Command is the executable of a stdio server, looked up in PATH. A line
	// on its stdout that is not a JSON-RPC message (a banner, a stray log
	// line) is skipped with a warning.
	Command string
	Args    []string
	// Env is the server's environment, over the few variables it inherits
	// from this process: HOME, LOGNAME, PATH, SHELL, TERM and USER (on
	// Windows APPDATA, COMSPEC, HOMEDRIVE, HOMEPATH, LOCALAPPDATA, PATH,
	// PATHEXT, PROCESSOR_ARCHITECTURE, PROGRAMFILES, SYSTEMDRIVE,
	// SYSTEMROOT, TEMP, TMP, USERNAME and USERPROFILE). A variable that
	// starts with CODEMODE_ is never inherited.
	Env map[string]string
	// InheritEnv passes the server this process's whole environment instead
	// of those few variables, still without CODEMODE_ ones. Dangerous: every
	// secret in the environment (API keys, cloud credentials) reaches the
	// server, and through any tool of it that reports its environment, the
	// cells that call it.
	InheritEnv bool
	// Cwd is the server's working directory; empty means this process's.
	Cwd string
	// URL is the endpoint of a streamable HTTP server; Headers are sent with
	// every request (for example Authorization).
	URL     string
	Headers map[string]string
	// SSE makes URL a legacy HTTP+SSE endpoint (the 2024-11-05 transport: an
	// event stream to GET that names the endpoint to POST messages to)
	// instead of a streamable HTTP one. It needs URL.
	SSE bool
	// DirectOnly names tools passed through to the model unchanged instead of
	// being catalogued, for example tools that return images.
	DirectOnly []string
	// Transport is an in-process transport (for example one of the SDK's
	// in-memory pair) used instead of Command or URL. It is connected once: a
	// server behind it that goes away is not restarted.
	Transport sdk.Transport
	// OAuth, when set, authorizes to a streamable HTTP server that asks for
	// it; see [OAuth].
	OAuth *OAuth
	// Trust is what a changed or new tool meets when [Options] Pins is set:
	// [TrustPin] (the default), [TrustAuto], [TrustStrict] or [TrustOff].
	Trust string
	// Redact passes the server's tool results, resources and prompts
	// through [Options] Redact before a cell sees them.
	Redact bool
}

// Options configure [Start]. A nil *Options means no servers.
type Options struct {
	// Servers maps server names (the <server> of mcp:<server>:<tool>) to their
	// configuration.
	Servers map[string]ServerConfig
	// CallTimeout bounds one tools/call, resources or prompts request; zero
	// means 60 seconds. A call that outlives a cell's deadline keeps running
	// (the cell is parked for wait) until it settles or this timeout passes.
	CallTimeout time.Duration
	// Logger receives connection, restart and dropped-tool warnings; nil
	// discards them. The warning for a stdio server that went down carries
	// its exit status and the last 2 KiB of its stderr, whose lines are also
	// logged one by one at debug level.
	Logger *slog.Logger
	// Wait, when positive, bounds how long Start waits for the servers'
	// first attempts. Servers still connecting then go on in the background:
	// their tools appear when they connect, and Version moves. Zero waits for
	// every first attempt, each bounded by CallTimeout.
	Wait time.Duration
	// Relay, when set, answers the elicitation and sampling requests the
	// servers make while a call of theirs is in flight, on behalf of the
	// scope (the run, and so the person) whose cell made that call; the
	// servers are told the capabilities it has. Without it, or when calls of
	// several scopes are in flight on the server, such requests are refused.
	Relay Relay
	// Pins, when set, pins each tool's definition when first seen and holds
	// back (quarantines) a tool whose definition changed, as its server's
	// Trust says: it is left out of the catalog, and a call of it from an
	// earlier run fails with a [*QuarantineError], until approved (see
	// [store.Approve]). Approvals are picked up within PinRecheck (zero
	// means 5 seconds). If the store fails, the tools it could not check
	// are held back.
	Pins       store.Pins
	PinRecheck time.Duration
	// OnPin, when set, is told of each pin event (PinPinned, ...) of a
	// server, for metrics.
	OnPin func(server, event string)
	// Redact redacts the results of servers whose Redact is set; nil
	// redacts nothing.
	Redact *redact.Redactor
	// Shapes, when set, keeps the result shapes learned of tools that
	// declare no output schema, which their declarations then show; nil
	// learns nothing.
	Shapes store.Shapes
	// Tracer, when set, traces the requests of cells' calls; CallContext
	// gives each call's context its span (mcpserve's
	// Observer.CallContext). See trace.go.
	Tracer      trace.TracerProvider
	CallContext func(context.Context, tool.Call) context.Context
}

const defaultCallTimeout = 60 * time.Second

// Client holds the connections to the configured servers. It is safe for
// concurrent use.
type Client struct {
	timeout time.Duration
	logger  *slog.Logger
	names   []string // sorted server names
	servers map[string]*server
	version atomic.Uint64 // moves whenever a server's tool list is replaced
	relay   Relay
	pins    store.Pins
	onPin   func(server, event string)
	redact  *redact.Redactor
	shapes  store.Shapes
	tracer  trace.Tracer // nil when traces are off
	callCtx func(context.Context, tool.Call) context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	closeOnce sync.Once
}

// Relay answers servers' requests of their client for the scope whose cell
// made the call they belong to; see [Options] Relay. Progress and Log pass on a server's notifications for a call of scope:
// its progress, and its log messages (servers that log are asked for info
// and above).
type Relay interface {
	Elicit(ctx context.Context, scope tool.Scope, params *sdk.ElicitParams) (*sdk.ElicitResult, error)
	CreateMessage(ctx context.Context, scope tool.Scope, params *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error)
	Progress(ctx context.Context, scope tool.Scope, server string, params *sdk.ProgressNotificationParams)
	Log(ctx context.Context, scope tool.Scope, server string, params *sdk.LoggingMessageParams)
}

// Start validates the configuration, connects to every server in parallel and
// returns once each has either listed its tools or failed its first attempt.
// A server whose first attempt fails is retried in the background with
// backoff (its tools appear when it comes up); only a configuration error
// fails Start. The servers stay connected until [Client.Close]; ctx bounds
// Start only.
func Start(ctx context.Context, opts *Options) (*Client, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &Client{timeout: o.CallTimeout, logger: o.Logger, relay: o.Relay, shapes: o.Shapes, callCtx: o.CallContext, servers: map[string]*server{},
		pins: o.Pins, onPin: o.OnPin, redact: o.Redact}
	if o.Tracer != nil {
		c.tracer = o.Tracer.Tracer(instrumentation)
	}
	if c.timeout <= 0 {
		c.timeout = defaultCallTimeout
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	for name, cfg := range o.Servers {
		if err := validate(name, cfg); err != nil {
			return nil, err
		}
		c.names = append(c.names, name)
	}
	slices.Sort(c.names)
	handlers := map[string]auth.OAuthHandler{}
	for _, name := range c.names {
		cfg := o.Servers[name]
		if cfg.OAuth == nil {
			continue
		}
		redirect, err := redirectURL(cfg.OAuth.RedirectPort)
		if err == nil {
			handlers[name], err = oauthHandler(name, cfg.OAuth, redirect, c.logger.With("server", name))
		}
		if err != nil {
			return nil, fmt.Errorf("configure MCP server %q: %w", name, err)
		}
	}
	life, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	for _, name := range c.names {
		s := newServer(c, name, o.Servers[name])
		s.oauth = handlers[name]
		c.servers[name] = s
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			s.supervise(life)
		}()
	}
	if c.pins != nil {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			c.recheck(life, cmp.Or(o.PinRecheck, defaultPinRecheck))
		}()
	}
	var enough <-chan time.Time
	if o.Wait > 0 {
		t := time.NewTimer(o.Wait)
		defer t.Stop()
		enough = t.C
	}
	for _, name := range c.names {
		select {
		case <-c.servers[name].first:
		case <-enough: // the others connect in the background
			return c, nil
		case <-ctx.Done():
			c.Close()
			return nil, fmt.Errorf("start MCP servers: %w", ctx.Err())
		}
	}
	return c, nil
}

func validate(name string, cfg ServerConfig) error {
	if name == "" {
		return errors.New("configure MCP server: empty server name")
	}
	set := 0
	for _, b := range []bool{cfg.Command != "", cfg.URL != "", cfg.Transport != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("configure MCP server %q: set exactly one of command, url or an in-process transport", name)
	}
	if cfg.SSE && cfg.URL == "" {
		return fmt.Errorf("configure MCP server %q: sse needs a url", name)
	}
	if cfg.OAuth != nil && (cfg.URL == "" || cfg.SSE) {
		return fmt.Errorf("configure MCP server %q: oauth applies only to a streamable HTTP url", name)
	}
	return checkTrust(name, cfg)
}

// Close disconnects every server and stops their processes. It is safe to
// call more than once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.cancel()
		for _, s := range c.servers {
			s.closeSession()
		}
		c.wg.Wait()
	})
	return nil
}

// Tools implements [tool.Source]: every connected server's tools, in server
// name order, each in the order the server listed them. A server that is
// restarting keeps its last known tools, whose calls fail until it is back.
func (c *Client) Tools() []tool.Tool {
	var out []tool.Tool
	for _, name := range c.names {
		out = append(out, c.servers[name].currentTools()...)
	}
	return out
}

// ServerState is what [Client.Servers] reports of one server.
type ServerState struct {
	Name     string
	Up       bool   // connected now
	Connects uint64 // successful connections so far
}

// Servers reports each server's state, in name order, for health checks
// and metrics.
func (c *Client) Servers() []ServerState {
	out := make([]ServerState, 0, len(c.names))
	for _, name := range c.names {
		s := c.servers[name]
		s.mu.Lock()
		out = append(out, ServerState{Name: name, Up: s.session != nil, Connects: s.connects})
		s.mu.Unlock()
	}
	return out
}

// Version implements [tool.Source]: it moves whenever a server's tool list
// is replaced (a connect, a reconnect, a tools/list_changed).
func (c *Client) Version() uint64 { return c.version.Load() }

// MCPRequest implements [tool.MCPSource] for "resources/list",
// "resources/read", "prompts/list" and "prompts/get".
func (c *Client) MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error) {
	s, ok := c.servers[server]
	if !ok {
		return nil, tool.ErrUnknownServer
	}
	return s.request(ctx, method, params)
}
