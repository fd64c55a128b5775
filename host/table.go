package host

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

// Policy is tools.allow, tools.deny and tools.directOnly. Each entry names a
// tool by its name (shipping_list) or by its exact catalog id
// (openclaw:demo:shipping_list, mcp:docs:search_docs, client:app:pick).
// Allow and Deny name an MCP server's resource and prompt operations the same
// way: by method (resources/read, on every server) or by id
// (mcp:docs:resources/read).
type Policy struct {
	// Allow, when non-nil, keeps only the tools and operations it names; an
	// empty list keeps none.
	Allow []string
	// Deny removes the tools and operations it names.
	Deny []string
	// DirectOnly marks the tools it names as [tool.Tool] DirectOnly does. It does
	// not apply to operations.
	DirectOnly []string
	// Approval sends every call of the tools and operations it names
	// through [tool.Hooks.Approve] first, as [tool.Tool] RequireApproval does.
	Approval []string
	// ApproveDestructive does the same for every tool whose MCP annotations
	// mark it destructive (see [Destructive]).
	ApproveDestructive bool
}

// Destructive reports whether MCP tool annotations mark a tool as one that
// may destroy or overwrite: destructiveHint true, or, as MCP defines the
// hints, readOnlyHint not true and destructiveHint absent. A tool with no
// annotations is not marked; annotations that do not parse are.
func Destructive(annotations json.RawMessage) bool {
	if len(annotations) == 0 {
		return false
	}
	var a struct {
		ReadOnly    *bool `json:"readOnlyHint"`
		Destructive *bool `json:"destructiveHint"`
	}
	if json.Unmarshal(annotations, &a) != nil {
		return true
	}
	if a.ReadOnly != nil && *a.ReadOnly {
		return false
	}
	return a.Destructive == nil || *a.Destructive
}

func named(list []string, name, id string) bool {
	return slices.Contains(list, name) || slices.Contains(list, id)
}

// keeps is the one allow and deny rule, for tools and operations alike.
func (p *Policy) keeps(name, id string) bool {
	return (p.Allow == nil || named(p.Allow, name, id)) && !named(p.Deny, name, id)
}

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

// table is what every run of a Runtime reads about its tools: the effective
// tools after the policy, the catalog with each entry's executor, the MCP
// indexes and the guest's setup data. It is built once per generation (the
// sources' Versions) and is immutable: a run, and a parked run across wait,
// keeps the table it was prepared with.
type table struct {
	versions  []uint64
	effective []sourced             // registration order, then each source's, then client tools
	catalog   *catalog.Catalog      // nil when code mode is off
	byID      map[string]*tool.Tool // catalog or MCP operation id -> executable tool
	client    map[*tool.Tool]bool
	approval  map[*tool.Tool]bool   // the tools whose calls Hooks.Approve decides
	direct    map[string]*tool.Tool // direct-only tools by name
	directs   []ToolDefinition
	all       map[string]*tool.Tool // every effective tool by name, for runs without code mode
	allDefs   []ToolDefinition
	owners    map[string]tool.MCPSource // the source serving each MCP server's resources and prompts

	mcpTools   map[string]catalog.MCPTool            // by id
	mcpServers map[string]string                     // server identifier -> server name
	mcpNames   map[string]map[string]catalog.MCPTool // server identifier -> identifier or exact name -> tool
	mcpOps     map[string]string                     // MCP operation id -> its method
	setupOnce  sync.Once
	setup      *setup // see guestSetup

	apiMu sync.Mutex
	api   map[string]abi.Outcome // encoded API files, by path
}

// current returns the table of the sources' current tools, building it when
// a source's Version moved since the last one. Versions are read before the
// tools, and under the lock, so a change during the build is seen by the
// next Prepare and a late Prepare never labels old tools with new versions.
func (r *Runtime) current() (*table, error) {
	r.tableMu.Lock()
	defer r.tableMu.Unlock()
	versions := r.versions()
	if r.table != nil && slices.Equal(r.table.versions, versions) {
		return r.table, nil
	}
	var tools []sourced
	owners := map[string]tool.MCPSource{}
	for i := range r.tools {
		tools = append(tools, identify(&r.tools[i], false))
	}
	for _, src := range r.sources {
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
	t, err := r.newTable(r.apply(tools), owners, nil)
	if err != nil {
		return nil, err
	}
	t.versions = versions
	r.table = t
	return t, nil
}

// apply keeps the tools the policy keeps and marks the direct-only ones. An
// MCP tool named like a resource or prompt operation is dropped: its id would
// be the operation's, and policy and hooks could not tell them apart.
func (r *Runtime) apply(tools []sourced) []sourced {
	out := make([]sourced, 0, len(tools))
	for _, s := range tools {
		if !r.policy.keeps(s.tool.Name, s.id) {
			continue
		}
		if s.origin == catalog.OriginMCP && isMCPMethod(s.tool.Name) {
			r.logger.Warn("MCP tool dropped: its name is a resource or prompt operation's", "server", s.tool.MCPServer, "tool", s.tool.Name)
			continue
		}
		s.directOnly = s.directOnly || named(r.policy.DirectOnly, s.tool.Name, s.id)
		s.approval = s.approval || named(r.policy.Approval, s.tool.Name, s.id) ||
			r.policy.ApproveDestructive && Destructive(s.tool.Annotations)
		out = append(out, s)
	}
	return out
}

// withClient is the table of a run with client tools: the runtime's table
// and the client tools after the policy, catalogued together. The table's
// entries are reused, so only the client tools' hints are rendered; the
// indexes are built again, which is what such a run costs (bench/RESULTS.md).
func (r *Runtime) withClient(base *table, clientTools []tool.Tool) (*table, error) {
	tools := slices.Clip(base.effective)
	var extra []sourced
	for i := range clientTools {
		extra = append(extra, identify(&clientTools[i], true))
	}
	return r.newTable(append(tools, r.apply(extra)...), base.owners, base.catalog)
}

// newTable catalogues the effective tools when code mode is enabled. A tool
// named exec or wait is catalogued even when direct-only: the model-visible
// exec and wait are code mode's. Tool Search's controls are never catalogued.
func (r *Runtime) newTable(tools []sourced, owners map[string]tool.MCPSource, reuse *catalog.Catalog) (*table, error) {
	t := &table{effective: tools, owners: owners, byID: make(map[string]*tool.Tool, len(tools)), client: map[*tool.Tool]bool{},
		direct: map[string]*tool.Tool{}, all: make(map[string]*tool.Tool, len(tools)), approval: map[*tool.Tool]bool{}}
	for _, s := range tools {
		if s.origin == catalog.OriginClient {
			t.client[s.tool] = true
		}
		if s.approval {
			t.approval[s.tool] = true
		}
		if r.surfaced(t.all, s) {
			t.allDefs = append(t.allDefs, definition(s.tool))
		}
	}
	if !r.catalogues() {
		return t, nil
	}
	var entries []catalog.Tool
	for _, s := range tools {
		if isToolSearchControl(s.tool.Name) {
			continue
		}
		if s.directOnly && s.tool.Name != "exec" && s.tool.Name != "wait" {
			if r.surfaced(t.direct, s) {
				t.directs = append(t.directs, definition(s.tool))
			}
			continue
		}
		entries = append(entries, catalog.Tool{
			Name: s.tool.Name, Label: s.tool.Label, Description: s.tool.Description,
			Origin: s.origin, Owner: s.owner, InputSchema: s.tool.InputSchema,
			OutputSchema: s.tool.OutputSchema, ReplaySafe: s.tool.ReplaySafe, Observed: s.tool.Observed,
		})
		t.byID[s.id] = s.tool
	}
	cat, err := catalog.Build(entries, &catalog.BuildOptions{
		SearchDefaultLimit: r.bounds.SearchDefaultLimit, MaxSearchLimit: r.bounds.MaxSearchLimit, Reuse: reuse})
	if err != nil {
		return nil, fmt.Errorf("build code mode catalog: %w", err)
	}
	t.catalog = cat
	t.indexMCP()
	t.indexMCPOperations(&r.policy)
	return t, nil
}

// watchEvery is how often Watch reads the sources' versions: atomic loads,
// so the cost is nothing, and a client learns of new tools well within a
// second.
const watchEvery = 200 * time.Millisecond

// Watch calls changed after the sources' tools change (a source's Version
// moves), until ctx ends: a server of the runtime's surface, such as
// mcpserve, tells its clients that the tool list changed. It reads the
// versions every 200 ms.
func (r *Runtime) Watch(ctx context.Context, changed func()) {
	last := r.versions()
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if v := r.versions(); !slices.Equal(v, last) {
			last = v
			changed()
		}
	}
}

func (r *Runtime) versions() []uint64 {
	v := make([]uint64, len(r.sources))
	for i, s := range r.sources {
		v[i] = s.Version()
	}
	return v
}

// surfaced adds a model-visible tool to byName unless a tool of its name is
// there already: two servers' tools of one name cannot both be visible, so
// the later one is dropped from the surface, with a warning that names both.
func (r *Runtime) surfaced(byName map[string]*tool.Tool, s sourced) bool {
	if first, taken := byName[s.tool.Name]; taken {
		r.logger.Warn("model-visible tool dropped: another tool has its name", "tool", s.tool.Name,
			"kept", first.MCPServer+first.Plugin, "dropped", s.id)
		return false
	}
	byName[s.tool.Name] = s.tool
	return true
}

// guestSetup is the table's guest data, rendered for its first cell: a run
// with client tools has a table of its own, and may never run one.
func (t *table) guestSetup() *setup {
	t.setupOnce.Do(func() { t.setup = newSetup(t.catalog) })
	return t.setup
}

// UnmatchedDirectOnly lists the Policy DirectOnly entries that name none of
// the tools the Runtime has now.
func (r *Runtime) UnmatchedDirectOnly() ([]string, error) {
	t, err := r.current()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range r.policy.DirectOnly {
		if !slices.ContainsFunc(t.effective, func(s sourced) bool { return s.tool.Name == n || s.id == n }) {
			out = append(out, n)
		}
	}
	return out, nil
}
