// Package host is Code Mode: it turns a run's tools and configuration into the
// model-facing surface (exec, wait and direct-only tools) and runs exec and
// wait cells against a hidden catalog of the other tools.
//
// A [Runtime] is built once per process with its tools and an engine; a [Run]
// is prepared per model run with its scope and client tools. A Runtime is
// safe for concurrent use, and so is a Run.
package host

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

//go:embed prelude.js
var preludeJS string

// Options configure a [Runtime]. A nil *Options means no tools and code mode
// off.
type Options struct {
	// Tools are core and plugin tools, in registration order.
	Tools []tool.Tool
	// Sources add tools to every run, after Tools (for example MCP servers).
	Sources []tool.Source
	// CodeMode is code mode's configuration; nil means code mode off.
	// ResolveConfig builds it from tools.codeMode's JSON; one built in Go
	// takes the same defaults and clamps (a zero field is its default).
	CodeMode *Config
	// ToolSearch is Tool Search, the other compact surface, for runs where
	// code mode is not active; nil means off. ResolveToolSearch builds it
	// from tools.toolSearch's JSON.
	ToolSearch *ToolSearchConfig
	// Engine runs cells; nil means a quickjswasi engine owned by the Runtime.
	// A caller-supplied engine must have been built with [Prelude].
	Engine abi.Engine
	// Logger receives configuration warnings and debug output.
	Logger *slog.Logger
	// Hooks see every call: the exec call itself and each nested call.
	Hooks tool.Hooks
	// MaxRunningCells bounds the cells that hold an engine instance at once
	// (running, or awaiting their tools within the deadline); more queue
	// until a slot frees or their deadline passes. Zero means
	// max(8, 4*GOMAXPROCS).
	MaxRunningCells int
	// MaxSessionCells is how many of those slots one session may hold; its
	// further cells wait for its own to end while other sessions' cells
	// start. Zero means max(1, MaxRunningCells/4); at or above
	// MaxRunningCells one session may hold them all, as a server whose one
	// session is a principal (stateless HTTP) needs.
	MaxSessionCells int
	// Policy is tools.allow, tools.deny and tools.directOnly, applied to
	// every tool: registered, from sources, and client tools; nil means
	// none.
	Policy *Policy
	// Sessions keeps what cells store with store(key, value); nil means
	// [store.NewMemorySessions].
	Sessions store.Sessions
	// Runs keeps parked runs where other processes can resume them (see
	// [store.Runs]); nil keeps them in this process. Replica names this
	// process in it; empty means a random name.
	Runs    store.Runs
	Replica string
	// MaxSessionRuns is how many parked runs one session may hold; zero
	// means [store.SessionRunsCap]. A server whose sessions are principals (one
	// per bearer token, as stateless HTTP has) raises it, since the share
	// exists to keep one client from taking every slot.
	MaxSessionRuns int
	// Swarm is agents.run, phase and log in cells; nil means off.
	// ResolveSwarm builds it from tools.swarm's JSON. Agents runs the
	// children; nil makes agents.run fail with a message that says so.
	Swarm  *SwarmConfig
	Agents Agents
}

// Prelude is the guest API that an engine must evaluate into its template.
func Prelude() string { return preludeJS }

// Runtime holds the engine, the configuration and the registered tools.
type Runtime struct {
	cfg    Config
	search ToolSearchConfig
	// bounds are the limits of the runtime's cells and searches: code
	// mode's, or Tool Search's when only it is on. A runtime serves one of
	// the two: code mode wins where both could be active.
	bounds     Config
	sources    []tool.Source // see ServesMCP
	engine     abi.Engine
	ownEng     bool
	logger     *slog.Logger
	store      *parkedRuns
	sessions   store.Sessions
	runs       store.Runs // nil: parked runs stay in store
	sessionCap int
	replica    string
	flights    *flights
	stopBeat   chan struct{}
	swarm      SwarmConfig
	agents     Agents
	debug      debugMode
	hooks      tool.Hooks
	workers    *workers
	slots      *slots        // see admit
	legGrace   time.Duration // see legGrace; tests shorten it

	tables *table.Builder // the tool table of each generation

	nsMu       sync.Mutex
	namespaces []registeredNamespace
	closeMu    sync.Mutex
	isClosed   bool
}

// New takes the configuration (nil sub-configurations are off, the rest
// normalized as their Resolve functions normalize JSON) and starts the
// engine when code mode is enabled. An engine that cannot start is an
// error: code mode fails closed.
func New(ctx context.Context, opts *Options) (*Runtime, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := orZero(o.CodeMode).normalized()
	search, err := orZero(o.ToolSearch).normalized()
	if err != nil {
		return nil, err
	}
	swarm := normalizedSwarm(orZero(o.Swarm))
	var warnings []string
	r := &Runtime{cfg: cfg, search: search, bounds: cfg, sources: slices.Clone(o.Sources), engine: o.Engine, logger: o.Logger, swarm: swarm}
	switch {
	case cfg.Enabled && search.Enabled:
		warnings = append(warnings, "tools.toolSearch: code mode is enabled, and where both could be active code mode wins, so Tool Search is never offered")
		r.search.Enabled = false
	case search.Enabled:
		r.bounds = search.Bounds
	}
	if o.MaxRunningCells <= 0 {
		o.MaxRunningCells = defaultRunningCells()
	}
	if o.MaxSessionCells <= 0 {
		o.MaxSessionCells = defaultSessionCells(o.MaxRunningCells)
	}
	r.slots = newSlots(o.MaxRunningCells, o.MaxSessionCells)
	if r.logger == nil {
		r.logger = slog.New(slog.DiscardHandler)
	}
	for _, w := range warnings {
		r.logger.Warn("code mode config", "warning", w)
	}
	for _, t := range o.Tools {
		if t.Execute == nil && !t.DirectOnly {
			return nil, fmt.Errorf("register tool %q: no Execute function", t.Name)
		}
	}
	if r.runsCells() && r.engine == nil {
		eng, err := quickjswasi.New(ctx, &quickjswasi.Options{Prelude: preludeJS, Logger: r.logger})
		if err != nil {
			return nil, fmt.Errorf("code mode runtime unavailable: %w", err)
		}
		r.engine, r.ownEng = eng, true
	}
	r.store = newParkedRuns()
	if r.sessions = o.Sessions; r.sessions == nil {
		r.sessions = store.NewMemorySessions()
	}
	r.workers = newWorkers()
	r.flights = newFlights()
	if r.sessionCap = o.MaxSessionRuns; r.sessionCap <= 0 {
		r.sessionCap = store.SessionRunsCap
	}
	r.store.sessionCap = r.sessionCap
	if r.runs = o.Runs; r.runs != nil {
		r.replica = cmp.Or(o.Replica, newReplicaName())
		r.stopBeat = make(chan struct{})
		go r.beat(r.stopBeat)
	}
	r.legGrace = legGrace
	r.debug = debugFromEnv()
	r.hooks = o.Hooks
	r.tables = table.NewBuilder(table.Spec{Tools: o.Tools, Sources: r.sources, Policy: orZero(o.Policy), Hooks: o.Hooks, Logger: r.logger,
		Catalogues: r.catalogues(), SearchDefaultLimit: r.bounds.SearchDefaultLimit, MaxSearchLimit: r.bounds.MaxSearchLimit})
	r.agents = o.Agents
	return r, nil
}

// orZero is *p, or the zero value for a nil p.
func orZero[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

// Config is the resolved configuration.
func (r *Runtime) Config() Config { return r.cfg }

// Close drops every parked run and closes an engine the Runtime owns.
func (r *Runtime) Close(ctx context.Context) error {
	r.closeMu.Lock()
	defer r.closeMu.Unlock()
	if r.isClosed {
		return nil
	}
	r.isClosed = true
	r.store.closeAll()
	if r.stopBeat != nil {
		close(r.stopBeat)
	}
	r.flights.cancel(func(*state) bool { return true })
	r.workers.close()
	if r.ownEng {
		return r.engine.Close(ctx)
	}
	return nil
}

// RunOptions describe one model run.
type RunOptions struct {
	Scope tool.Scope
	// ClientTools are supplied by the caller for this run only.
	ClientTools []tool.Tool
	// DisableTools marks a run that intentionally has no tools.
	DisableTools bool
	// TurnID is the assistant turn the run's exec calls come from; it enters
	// the replay ids of restart-safe runs.
	TurnID string
	// Trajectory, when set, receives every nested tool call of the run's
	// cells after it finishes, from the goroutine that ran it; with
	// tools.swarm also each child of agents.run (as a call), and each phase
	// and log, in order, from a goroutine of the run's own, before the
	// result of the leg that made them.
	Trajectory func(NestedCall)
}
