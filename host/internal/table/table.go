// Package table is the tool table of one generation of a runtime's tools:
// each tool's identity, the policy applied to it, the hidden catalog, the
// model-facing surface and its fail-closed checks, and Call, the one path
// every caller of a tool takes (a cell's nested call, a direct call, Tool
// Search's tool_call, an MCP operation for the client).
//
// A [Builder] belongs to a runtime and builds a [Table] once per generation
// (the sources' Versions). A Table is immutable: a run, and a parked run
// across wait, keeps the table it was prepared with.
package table

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/tool"
)

// Spec is what a Builder builds tables from.
type Spec struct {
	Tools   []tool.Tool // core and plugin tools, in registration order
	Sources []tool.Source
	Policy  Policy
	Hooks   tool.Hooks
	Logger  *slog.Logger
	// Catalogues is set when runs have a hidden catalog (code mode or Tool
	// Search); the limits are its search's.
	Catalogues                         bool
	SearchDefaultLimit, MaxSearchLimit int
}

// Builder builds a runtime's tables; it is safe for concurrent use.
type Builder struct {
	spec    Spec
	outputs contracts

	mu  sync.Mutex
	cur *Table // see Current
}

// NewBuilder returns the builder of spec's tables.
func NewBuilder(spec Spec) *Builder {
	spec.Tools = slices.Clone(spec.Tools)
	spec.Sources = slices.Clone(spec.Sources)
	return &Builder{spec: spec}
}

// Policy is the policy the builder applies.
func (b *Builder) Policy() *Policy { return &b.spec.Policy }

// sourced is an effective tool with its catalog identity.
type sourced struct {
	tool       *tool.Tool
	origin     catalog.Origin
	owner      string // catalog.Tool Owner: the plugin, MCP server or client owner
	id         string
	directOnly bool // the tool's own mark or the policy's
	approval   bool // the tool's own mark or the policy's
}

// identify gives a registered (or, with client, a client) tool its origin,
// owner and catalog id.
func identify(t *tool.Tool, client bool) sourced {
	s := sourced{tool: t, owner: t.Plugin, directOnly: t.DirectOnly, approval: t.RequireApproval}
	switch {
	case client:
		s.origin = catalog.OriginClient
	case t.MCPServer != "":
		s.origin, s.owner = catalog.OriginMCP, t.MCPServer
	case t.Plugin != "":
		s.origin = catalog.OriginBundledPlugin
	}
	_, _, s.id = catalog.Identify(s.origin, s.owner, t.Name)
	return s
}

// Table is what every run of a runtime reads about its tools: the effective
// tools after the policy, the catalog with each entry's executor, the MCP
// indexes and the guest's setup data. Its fields are read-only.
type Table struct {
	b         *Builder // its hooks and output contracts (see Call)
	versions  []uint64
	effective []sourced             // registration order, then each source's, then client tools
	Catalog   *catalog.Catalog      // nil when no surface catalogues
	ByID      map[string]*tool.Tool // catalog or MCP operation id -> executable tool
	client    map[*tool.Tool]bool
	approval  map[*tool.Tool]bool   // the tools whose calls Hooks.Approve decides
	Direct    map[string]*tool.Tool // direct-only tools by name
	Directs   []Definition
	All       map[string]*tool.Tool // every effective tool by name, for runs without a compact surface
	AllDefs   []Definition
	Owners    map[string]tool.MCPSource // the source serving each MCP server's resources and prompts

	MCPTools   map[string]catalog.MCPTool            // by id
	MCPServers map[string]string                     // server identifier -> server name
	MCPNames   map[string]map[string]catalog.MCPTool // server identifier -> identifier or exact name -> tool
	MCPOps     map[string]string                     // MCP operation id -> its method
	setupOnce  sync.Once
	setup      *Setup // see GuestSetup

	apiMu sync.Mutex
	api   map[string]abi.Outcome // encoded API files, by path
}

// Empty reports a table without effective tools.
func (t *Table) Empty() bool { return len(t.effective) == 0 }

// Current returns the table of the sources' current tools, building it when
// a source's Version moved since the last one. Versions are read before the
// tools, and under the lock, so a change during the build is seen by the
// next Prepare and a late Prepare never labels old tools with new versions.
func (b *Builder) Current() (*Table, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	versions := b.Versions()
	if b.cur != nil && slices.Equal(b.cur.versions, versions) {
		return b.cur, nil
	}
	var tools []sourced
	owners := map[string]tool.MCPSource{}
	for i := range b.spec.Tools {
		tools = append(tools, identify(&b.spec.Tools[i], false))
	}
	for _, src := range b.spec.Sources {
		list := src.Tools()
		ms, _ := src.(tool.MCPSource)
		for i := range list {
			t := &list[i]
			if _, seen := owners[t.MCPServer]; ms != nil && t.MCPServer != "" && !seen {
				owners[t.MCPServer] = ms
			}
			tools = append(tools, identify(t, false))
		}
	}
	t, err := b.newTable(b.apply(tools), owners, nil)
	if err != nil {
		return nil, err
	}
	t.versions = versions
	b.cur = t
	return t, nil
}

// Versions are the sources' Versions now.
func (b *Builder) Versions() []uint64 {
	v := make([]uint64, len(b.spec.Sources))
	for i, s := range b.spec.Sources {
		v[i] = s.Version()
	}
	return v
}

// apply keeps the tools the policy keeps and marks the direct-only ones. An
// MCP tool named like a resource or prompt operation is dropped: its id would
// be the operation's, and policy and hooks could not tell them apart.
func (b *Builder) apply(tools []sourced) []sourced {
	p := &b.spec.Policy
	out := make([]sourced, 0, len(tools))
	for _, s := range tools {
		if !p.Keeps(s.tool.Name, s.id) {
			continue
		}
		if s.origin == catalog.OriginMCP && IsMCPMethod(s.tool.Name) {
			b.spec.Logger.Warn("MCP tool dropped: its name is a resource or prompt operation's", "server", s.tool.MCPServer, "tool", s.tool.Name)
			continue
		}
		s.directOnly = s.directOnly || named(p.DirectOnly, s.tool.Name, s.id)
		s.approval = s.approval || named(p.Approval, s.tool.Name, s.id) ||
			p.ApproveDestructive && Destructive(s.tool.Annotations)
		out = append(out, s)
	}
	return out
}

// WithClient is the table of a run with client tools: base and the client
// tools after the policy, catalogued together. base's entries are reused,
// so only the client tools' hints are rendered; the indexes are built
// again, which is what such a run costs (bench/RESULTS.md).
func (b *Builder) WithClient(base *Table, clientTools []tool.Tool) (*Table, error) {
	tools := slices.Clip(base.effective)
	var extra []sourced
	for i := range clientTools {
		extra = append(extra, identify(&clientTools[i], true))
	}
	return b.newTable(append(tools, b.apply(extra)...), base.Owners, base.Catalog)
}

// newTable catalogues the effective tools when a surface catalogues. A tool
// named exec or wait is catalogued even when direct-only: the model-visible
// exec and wait are code mode's. Tool Search's controls are never catalogued.
func (b *Builder) newTable(tools []sourced, owners map[string]tool.MCPSource, reuse *catalog.Catalog) (*Table, error) {
	t := &Table{b: b, effective: tools, Owners: owners, ByID: make(map[string]*tool.Tool, len(tools)), client: map[*tool.Tool]bool{},
		Direct: map[string]*tool.Tool{}, All: make(map[string]*tool.Tool, len(tools)), approval: map[*tool.Tool]bool{}}
	for _, s := range tools {
		if s.origin == catalog.OriginClient {
			t.client[s.tool] = true
		}
		if s.approval {
			t.approval[s.tool] = true
		}
		if b.surfaced(t.All, s) {
			t.AllDefs = append(t.AllDefs, definition(s.tool))
		}
	}
	if !b.spec.Catalogues {
		return t, nil
	}
	var entries []catalog.Tool
	for _, s := range tools {
		if IsToolSearchControl(s.tool.Name) {
			continue
		}
		if s.directOnly && s.tool.Name != "exec" && s.tool.Name != "wait" {
			if b.surfaced(t.Direct, s) {
				t.Directs = append(t.Directs, definition(s.tool))
			}
			continue
		}
		entries = append(entries, catalog.Tool{
			Name: s.tool.Name, Label: s.tool.Label, Description: s.tool.Description,
			Origin: s.origin, Owner: s.owner, InputSchema: s.tool.InputSchema,
			OutputSchema: s.tool.OutputSchema, ReplaySafe: s.tool.ReplaySafe, Observed: s.tool.Observed,
		})
		t.ByID[s.id] = s.tool
	}
	cat, err := catalog.Build(entries, &catalog.BuildOptions{
		SearchDefaultLimit: b.spec.SearchDefaultLimit, MaxSearchLimit: b.spec.MaxSearchLimit, Reuse: reuse})
	if err != nil {
		return nil, fmt.Errorf("build code mode catalog: %w", err)
	}
	t.Catalog = cat
	t.indexMCP()
	t.indexMCPOperations(&b.spec.Policy)
	return t, nil
}

// surfaced adds a model-visible tool to byName unless a tool of its name is
// there already: two servers' tools of one name cannot both be visible, so
// the later one is dropped from the surface, with a warning that names both.
func (b *Builder) surfaced(byName map[string]*tool.Tool, s sourced) bool {
	if first, taken := byName[s.tool.Name]; taken {
		b.spec.Logger.Warn("model-visible tool dropped: another tool has its name", "tool", s.tool.Name,
			"kept", first.MCPServer+first.Plugin, "dropped", s.id)
		return false
	}
	byName[s.tool.Name] = s.tool
	return true
}

// GuestSetup is the table's guest data, rendered for its first cell: a run
// with client tools has a table of its own, and may never run one.
func (t *Table) GuestSetup() *Setup {
	t.setupOnce.Do(func() { t.setup = newSetup(t.Catalog) })
	return t.setup
}

// UnmatchedDirectOnly lists the Policy DirectOnly entries that name none of
// the tools the builder has now.
func (b *Builder) UnmatchedDirectOnly() ([]string, error) {
	t, err := b.Current()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range b.spec.Policy.DirectOnly {
		if !slices.ContainsFunc(t.effective, func(s sourced) bool { return s.tool.Name == n || s.id == n }) {
			out = append(out, n)
		}
	}
	return out, nil
}

// APIFile answers API.read, encoding each file once per table: a cell that
// reads a large declaration many times holds one copy of it.
func (t *Table) APIFile(path string) abi.Outcome {
	t.apiMu.Lock()
	defer t.apiMu.Unlock()
	if out, ok := t.api[path]; ok {
		return out
	}
	out := bridge.Outcome(t.Catalog.APIFiles().Read(path))
	if !out.Rejected {
		if t.api == nil {
			t.api = map[string]abi.Outcome{}
		}
		t.api[path] = out
	}
	return out
}
