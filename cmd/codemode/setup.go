package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/mcpserve"
	"github.com/seed11a79d2d/codemode/plugins/demo"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
	"github.com/seed11a79d2d/codemode/plugins/tracker"
	"github.com/seed11a79d2d/codemode/provider"
	"github.com/seed11a79d2d/codemode/redact"
	"github.com/seed11a79d2d/codemode/redisstore"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// demoCodeMode is tools.codeMode when no --config is given.
var demoCodeMode = json.RawMessage(`{"enabled":true}`)

// cliScope is the scope of the exec command's one run.
var cliScope = tool.Scope{AgentID: "cli", SessionKey: "cli", SessionID: "cli", RunID: "cli"}

// env is a started runtime and everything it was built from. Close it.
type env struct {
	rt      *host.Runtime
	cfg     host.Config
	file    *config.File // nil without --config
	tools   []tool.Tool
	sources []tool.Source
	demo    *demo.Plugin     // nil when the demo plugin is off
	tracker *tracker.Tracker // nil when the tracker plugin is off
	closers []func()         // run in reverse order by Close
	// relay passes the MCP servers' elicitation and sampling requests to
	// serve's clients; nil for the other commands, whose servers are then
	// told there is no one to ask.
	relay *mcpserve.Relay
	mcp   *mcp.Client // the MCP servers' client, if any
	runs  store.Runs  // serve's run store, if any
	// redact is what cells' output passes through before the model sees
	// it: nil unless the configuration's top-level redact is on.
	redact *redact.Redactor
	// provider runs the children of agents.run when tools.swarm.provider
	// is set; nil otherwise.
	provider    *provider.Client
	providerKey string
}

// engineMode says whether a command needs cells.
type engineMode int

const (
	withEngine engineMode = iota
	// listingOnly builds the surface and catalog without starting the
	// engine: a command that never runs a cell should not pay for it.
	listingOnly
	// serving is withEngine for serve: it waits for the MCP servers'
	// first attempts at most serveWait, so a client's initialize is
	// answered at once, and the servers' tools reach it as they connect.
	serving
)

// errConfig marks errors that exit with status 2.
var errConfig = errors.New("configuration error")

// serveWait is how long serve waits for the MCP servers' first attempts:
// enough for a quick server's tools to be there at initialize, well within
// the 60 s that clients give a server to answer it.
const serveWait = time.Second

// newEnv loads the configuration (the demo setup when path is empty), starts
// the MCP servers and the engine, and builds the runtime.
//
// so are serve's own settings (nil for the other commands).
func newEnv(ctx context.Context, path string, mode engineMode, engineFlag string, so *serveSettings, logger *slog.Logger, stderr io.Writer) (_ *env, err error) {
	// Start-up allocates a few MB, most of it kept (the engine's code and
	// template, the catalog): collecting on the way only costs a 2-core
	// machine about a tenth of a CLI run.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	e := &env{}
	defer func() {
		if err != nil {
			e.Close(context.WithoutCancel(ctx))
		}
	}()
	codeMode := demoCodeMode
	swarm := demoSwarm
	var toolSearch json.RawMessage
	useDemo, useTracker := true, true
	var servers []config.MCPServer
	var policy host.Policy
	if path != "" {
		f, err := config.Load(path)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errConfig, err)
		}
		for _, w := range f.Warnings {
			fmt.Fprintf(stderr, "codemode: warning: %s\n", w)
		}
		e.file = f
		codeMode, toolSearch = f.CodeMode, f.ToolSearch
		swarm = f.Swarm
		useDemo = f.Plugins[demo.PluginID]
		useTracker = f.Plugins[tracker.PluginID]
		servers = f.MCPServers
		policy = host.Policy{Allow: f.Allow, Deny: f.Deny, DirectOnly: f.DirectOnly,
			Approval: f.Approval.Tools, ApproveDestructive: f.Approval.Destructive}
	}
	engineName, err := pickEngine(engineFlag, e.engineFromFile())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	if so != nil && so.observer != nil {
		so.observer.Engine = engineName
	}
	cfg, warnings, err := host.ResolveConfig(codeMode, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	search, more, err := host.ResolveToolSearch(toolSearch)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	warnings = append(warnings, more...)
	e.cfg = cfg
	// Cells run in code mode, and in Tool Search's tool_search_code.
	cells := cfg.Enabled || search.Enabled && search.Mode != host.ToolSearchTools

	// The engine compiles or loads while the MCP servers start.
	type started struct {
		eng engine
		err error
	}
	var engc chan started
	if cells && mode != listingOnly {
		engc = make(chan started, 1)
		go func() {
			eng, err := startEngine(ctx, engineName, stderr, logger)
			engc <- started{eng, err}
		}()
	}
	waitEngine := func() (abi.Engine, error) {
		switch {
		case !cells:
			return nil, nil
		case engc == nil:
			return listingEngine{}, nil
		}
		s := <-engc
		engc = nil
		if s.err != nil {
			return nil, s.err
		}
		e.closers = append(e.closers, func() { s.eng.Close(context.WithoutCancel(ctx)) })
		return s.eng, nil
	}
	defer func() {
		if engc != nil { // an early return: collect and close the engine
			waitEngine()
		}
	}()

	if e.file != nil && mode != listingOnly {
		if e.provider, e.providerKey, err = newProvider(e.file.Provider, logger, so); err != nil {
			return nil, err
		}
		if e.provider != nil {
			e.closers = append(e.closers, e.provider.Close)
		}
	}
	if useDemo {
		e.demo = demo.New()
		e.tools = e.demo.Tools()
	}
	if mode == serving {
		e.relay = &mcpserve.Relay{}
		if e.file != nil {
			e.relay.AllowWithoutElicitation = e.file.Approval.AllowWithoutClient
		}
	}
	if useTracker {
		e.tracker = tracker.New(demoIssues()...)
		e.tools = append(e.tools, e.tracker.Tools()...)
	}
	hooks := so.hooks(tool.Hooks{Approve: e.approver(useTracker, stderr)})
	// The run store opens before the servers start: with one, it keeps the
	// tools' pins too.
	var runs store.Runs
	var sessions store.Sessions // nil: in memory
	var redis *redisstore.Store
	rs := so.runStore(e.file)
	if rs != nil && mode == serving {
		if redis, err = openStore(ctx, rs, so); err != nil {
			return nil, err
		}
		e.closers = append(e.closers, func() { redis.Close() })
		runs, sessions = so.meter(redis), redis.Sessions() // store(key, value) is seen by every replica too
		e.runs = runs
	}
	var secrets []string
	for _, s := range servers {
		secrets = append(secrets, serverSecrets(s)...)
	}
	if e.provider != nil {
		secrets = append(secrets, e.providerKey)
	}
	redactor := so.newRedactor(e.file, secrets)
	redactServers, redactCells := redaction(e.file)
	if redactCells {
		e.redact = redactor
	}
	mcpServers := map[string]mcp.ServerConfig{}
	if useDemo {
		ct, st := sdk.NewInMemoryTransports()
		ss, err := demo.NewDocsServer().Connect(ctx, st, nil)
		if err != nil {
			return nil, fmt.Errorf("start the demo docs server: %w", err)
		}
		e.closers = append(e.closers, func() { ss.Close() })
		mcpServers[demo.DocsServerName] = mcp.ServerConfig{Transport: ct, Trust: mcp.TrustOff} // ours: nothing to pin
	}
	for _, s := range servers {
		if _, taken := mcpServers[s.Name]; taken {
			return nil, fmt.Errorf("%w: %s: mcpServers.%s: the demo plugin's docs server has this name; rename the server or turn the demo plugin off",
				errConfig, e.file.Pos("mcpServers."+s.Name), s.Name)
		}
		for _, v := range s.Headers {
			so.secret(v)
		}
		if s.OAuth != nil {
			so.secret(s.OAuth.Client.ClientSecret)
		}
		oauth, err := serverOAuth(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errConfig, err)
		}
		mcpServers[s.Name] = mcp.ServerConfig{Command: s.Command, Args: s.Args, Env: s.Env, InheritEnv: s.InheritEnv, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, SSE: s.SSE, DirectOnly: s.DirectOnly, OAuth: oauth,
			Trust: s.Trust, Redact: redactServers[s.Name]}
	}
	if len(mcpServers) > 0 {
		o := &mcp.Options{Servers: mcpServers, Logger: logger, Redact: redactor, Pins: pinStore(path, redis),
			OnPin: func(server, event string) {
				if so != nil {
					so.metrics.PinEvent(server, event)
				}
			}}
		switch {
		case e.file != nil && e.file.NoLearn:
		case redis != nil:
			o.Shapes = redis.Shapes() // learned shapes are shared by replicas and outlive restarts
		default:
			o.Shapes = &store.MemoryShapes{}
		}
		if mode == serving {
			o.Wait, o.Relay = serveWait, e.relay
		}
		so.traceServers(o)
		client, err := mcp.Start(ctx, o)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errConfig, err)
		}
		e.closers = append(e.closers, func() { client.Close() })
		e.sources, e.mcp = append(e.sources, client), client
		so.watchServers(client)
	}

	eng, err := waitEngine()
	if err != nil {
		return nil, err
	}
	var sessionRuns, sessionCells int
	if so != nil && so.stateless {
		// Every caller with the token is one principal, and so one session:
		// its share of parked runs is the whole, the store's or the process's,
		// and so is its share of the running cells.
		sessionRuns, sessionCells = store.MaxParkedRuns, math.MaxInt
		if runs != nil {
			sessionRuns = cmp.Or(rs.MaxRuns, redisstore.DefaultMaxRuns)
		}
	}
	swarmCfg, more, err := host.ResolveSwarm(swarm)
	if err != nil {
		return nil, err
	}
	for _, w := range append(warnings, more...) {
		logger.Warn("code mode config", "warning", w)
	}
	rt, err := host.New(ctx, &host.Options{Tools: e.tools, Sources: e.sources, CodeMode: &cfg, ToolSearch: &search,
		Engine: eng, Logger: logger, Hooks: hooks, Policy: &policy, Swarm: &swarmCfg, Agents: e.agents(useDemo), Runs: runs, Sessions: sessions, MaxSessionRuns: sessionRuns, MaxSessionCells: sessionCells})
	if err != nil {
		return nil, err
	}
	e.rt = rt
	unmatched, err := rt.UnmatchedDirectOnly()
	if err != nil {
		return nil, err
	}
	for _, name := range unmatched {
		fmt.Fprintf(stderr, "codemode: warning: %s: tools.directOnly: no tool named %q\n", e.file.Pos("tools.directOnly"), name)
	}
	if e.demo != nil {
		for _, ns := range e.demo.Namespaces() {
			if err := rt.RegisterNamespace(demo.PluginID, ns); err != nil {
				return nil, err
			}
		}
	}
	if e.tracker != nil {
		if err := e.tracker.Register(rt); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// noTools says why a run has no tools: a policy that kept none, servers that
// listed none, or nothing configured.
func (e *env) noTools() string {
	switch {
	case e.file != nil && (e.file.Allow != nil || len(e.file.Deny) > 0):
		return "no tools are left after tools.allow and tools.deny"
	case e.file != nil && len(e.file.MCPServers) > 0:
		return "no tool is available: the MCP servers listed none (see the warnings above)"
	}
	return "no tool is available: no plugin or MCP server is configured"
}

// Close closes the runtime, then the engine, the MCP client and servers.
func (e *env) Close(ctx context.Context) {
	if e.rt != nil {
		e.rt.Close(ctx)
	}
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
	e.closers = nil
}

// newLogger writes log records of at least level to stderr, except the
// host's config warnings: the config loader already printed those with their
// positions.
func newLogger(stderr io.Writer, level slog.Level) *slog.Logger {
	return slog.New(dropConfigWarnings{slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})})
}

// quietLevel is the log level of exec, catalog and version: warnings only,
// unless a host debug switch asks for its model-facing tool logs.
func quietLevel() slog.Level {
	if os.Getenv(host.DebugEnv) != "" || os.Getenv(host.DebugPayloadEnv) != "" {
		return slog.LevelInfo
	}
	return slog.LevelWarn
}

type dropConfigWarnings struct{ slog.Handler }

func (h dropConfigWarnings) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "code mode config" {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h dropConfigWarnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return dropConfigWarnings{h.Handler.WithAttrs(attrs)}
}

func (h dropConfigWarnings) WithGroup(name string) slog.Handler {
	return dropConfigWarnings{h.Handler.WithGroup(name)}
}

// listingEngine stands in for the engine when a command only lists the
// surface and catalog; it refuses to run cells.
type listingEngine struct{}

var errListingOnly = errors.New("this command does not run cells")

func (listingEngine) Capabilities() abi.Capabilities { return abi.Capabilities{} }
func (listingEngine) NewCell(context.Context, abi.Limits, abi.Host) (abi.Cell, error) {
	return nil, errListingOnly
}
func (listingEngine) Restore(context.Context, []byte, abi.Limits, abi.Host) (abi.Cell, error) {
	return nil, errListingOnly
}
func (listingEngine) Close(context.Context) error { return nil }

func (e *env) engineFromFile() string {
	if e.file == nil {
		return ""
	}
	return e.file.Engine
}
