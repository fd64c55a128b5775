package host

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/seed11a79d2d/codemode/catalog"
)

// ToolDefinition is a model-visible tool as MCP and the major providers
// expect it.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Run is one prepared model run: its catalog and its model-visible tools.
type Run struct {
	rt         *Runtime
	opts       RunOptions
	active     bool
	catalog    *catalog.Catalog
	byID       map[string]*Tool // catalog or MCP operation id -> executable tool
	mcpTools   map[string]catalog.MCPTool
	mcpServers map[string]string // MCP server identifier -> server name
	mcpOps     map[string]string // MCP operation id -> its MCP method
	direct     map[string]*Tool  // model-visible tools other than exec and wait
	client     map[*Tool]bool
	namespaces []visibleNamespace
	visible    []ToolDefinition
	setup      string // the first arguments of __cm_setup (see setupArgs)

	searches, describes, calls atomic.Int64
}

// helpers the guest's tools object already has; convenience names never
// shadow them.
var guestHelpers = []string{"search", "describe", "call", "callValue"}

// Prepare builds the run's effective tool list, and when code mode is active,
// its hidden catalog and model surface.
func (r *Runtime) Prepare(opts RunOptions) (*Run, error) {
	run := &Run{rt: r, opts: opts, byID: map[string]*Tool{}, direct: map[string]*Tool{}, client: map[*Tool]bool{}}
	registered := r.tools
	owners := map[string]MCPSource{} // the source that serves an MCP server's resources and prompts
	for _, src := range r.sources {
		tools := src.Tools()
		if ms, ok := src.(MCPSource); ok {
			for _, t := range tools {
				if _, seen := owners[t.MCPServer]; t.MCPServer != "" && !seen {
					owners[t.MCPServer] = ms
				}
			}
		}
		registered = append(slices.Clip(registered), tools...)
	}
	all := r.effective(registered, opts)
	run.active = r.cfg.Enabled && !opts.DisableTools && len(all) > 0
	for _, t := range all {
		if t.origin == catalog.OriginClient {
			run.client[t.tool] = true
		}
	}
	if !run.active {
		for _, t := range all {
			run.visible = append(run.visible, definition(t))
			run.direct[t.tool.Name] = t.tool
		}
		run.logSurface()
		return run, nil
	}
	var tools []catalog.Tool
	var direct []ToolDefinition
	for _, t := range all {
		if isToolSearchControl(t.tool.Name) {
			continue
		}
		// A tool named exec or wait is hidden and catalogued even when
		// direct-only: the model-visible exec and wait are code mode's.
		if t.tool.DirectOnly && t.tool.Name != "exec" && t.tool.Name != "wait" {
			direct = append(direct, definition(t))
			run.direct[t.tool.Name] = t.tool
			continue
		}
		tools = append(tools, catalog.Tool{
			Name: t.tool.Name, Label: t.tool.Label, Description: t.tool.Description,
			Origin: t.origin, Owner: ownerOf(t), InputSchema: t.tool.InputSchema,
			OutputSchema: t.tool.OutputSchema, ReplaySafe: t.tool.ReplaySafe,
		})
	}
	cat, err := catalog.Build(tools, &catalog.BuildOptions{
		SearchDefaultLimit: r.cfg.SearchDefaultLimit, MaxSearchLimit: r.cfg.MaxSearchLimit})
	if err != nil {
		return nil, fmt.Errorf("build code mode catalog: %w", err)
	}
	run.catalog = cat
	run.indexMCP()
	run.indexMCPOperations(owners)
	run.resolveNamespaces()
	type key struct {
		origin      catalog.Origin
		owner, name string
	}
	byKey := make(map[key]*Tool, len(all))
	for _, t := range all {
		byKey[key{t.origin, ownerOf(t), t.tool.Name}] = t.tool
	}
	for _, e := range cat.Entries() {
		if t := byKey[key{e.Origin, e.SourceName, e.Name}]; t != nil {
			run.byID[e.ID] = t
		}
	}
	run.visible = append([]ToolDefinition{run.execDefinition(), waitDefinition()}, direct...)
	if err := checkSurface(run.visible, direct); err != nil {
		return nil, err
	}
	run.setup = run.setupArgs()
	run.logSurface()
	return run, nil
}

type sourced struct {
	tool   *Tool
	origin catalog.Origin
}

func ownerOf(t sourced) string {
	switch {
	case t.origin == catalog.OriginClient && t.tool.Plugin == "":
		return "client"
	case t.origin == catalog.OriginCore:
		return "core"
	case t.origin == catalog.OriginMCP:
		return t.tool.MCPServer
	}
	return t.tool.Plugin
}

// permitted reports whether a run's Allow and Deny keep the tool or MCP
// operation with this name: an Allow list that does not name it refuses it.
func permitted(opts RunOptions, name string) bool {
	return (opts.Allow == nil || slices.Contains(opts.Allow, name)) && !slices.Contains(opts.Deny, name)
}

// effective applies allow/deny policy to the registered and client tools. An
// MCP tool named like a resource or prompt operation is dropped: its id
// would be the operation's, and policy and hooks could not tell them apart.
func (r *Runtime) effective(registered []Tool, opts RunOptions) []sourced {
	var out []sourced
	add := func(t *Tool, o catalog.Origin) {
		if !permitted(opts, t.Name) {
			return
		}
		if o == catalog.OriginMCP && isMCPMethod(t.Name) {
			r.logger.Warn("MCP tool dropped: its name is a resource or prompt operation's", "server", t.MCPServer, "tool", t.Name)
			return
		}
		out = append(out, sourced{t, o})
	}
	for i := range registered {
		o := catalog.OriginCore
		switch {
		case registered[i].MCPServer != "":
			o = catalog.OriginMCP
		case registered[i].Plugin != "":
			o = catalog.OriginBundledPlugin
		}
		add(&registered[i], o)
	}
	for i := range opts.ClientTools {
		add(&opts.ClientTools[i], catalog.OriginClient)
	}
	return out
}

func isToolSearchControl(name string) bool {
	switch name {
	case "tool_search_code", "tool_search", "tool_describe", "tool_call":
		return true
	}
	return false
}

// checkSurface is the final fail-closed check: exactly one exec, one wait,
// and only the approved direct-only tools.
func checkSurface(visible, direct []ToolDefinition) error {
	var execs, waits int
	for _, d := range visible {
		switch {
		case d.Name == "exec":
			if !strings.HasPrefix(d.Description, execIntro) {
				return fmt.Errorf("%w: an exec that is not code mode's", ErrFailClosed)
			}
			execs++
		case d.Name == "wait":
			if d.Description != waitDescription {
				return fmt.Errorf("%w: a wait that is not code mode's", ErrFailClosed)
			}
			waits++
		case isToolSearchControl(d.Name):
			return fmt.Errorf("%w: Tool Search control %q", ErrFailClosed, d.Name)
		case !slices.ContainsFunc(direct, func(x ToolDefinition) bool { return x.Name == d.Name }):
			return fmt.Errorf("%w: %q is neither a control nor a direct-only tool", ErrFailClosed, d.Name)
		}
	}
	if execs != 1 || waits != 1 {
		return fmt.Errorf("%w: want one exec and one wait, have %d and %d", ErrFailClosed, execs, waits)
	}
	return nil
}

func definition(t sourced) ToolDefinition {
	schema := t.tool.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return ToolDefinition{Name: t.tool.Name, Description: t.tool.Description, InputSchema: schema}
}

// Active reports whether code mode shapes this run's surface.
func (run *Run) Active() bool { return run.active }

// Tools returns the model-visible tool definitions: exec, wait and the
// direct-only tools when code mode is active, otherwise the effective tools
// unchanged.
func (run *Run) Tools() []ToolDefinition { return slices.Clone(run.visible) }

// Catalog returns the run's hidden catalog, or nil when code mode is off.
func (run *Run) Catalog() *catalog.Catalog { return run.catalog }

// jsString quotes s as a JavaScript string literal (a JSON string is one).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// setupArgs are the first arguments of __cm_setup, each JSON in a string
// literal: the guest API's data (convenience names, API files, MCP servers)
// and the entries behind ALL_TOOLS.
func (run *Run) setupArgs() string {
	type file struct {
		Path    string `json:"path"`
		Bytes   int    `json:"bytes"`
		Content string `json:"content"`
	}
	data := struct {
		Names [][2]string `json:"names"`
		Files []file      `json:"files"`
		MCP   []mcpSetup  `json:"mcp"`
	}{Names: [][2]string{}, Files: []file{}, MCP: run.mcpSetup()}
	for _, b := range run.catalog.ConvenienceNames(guestHelpers) {
		data.Names = append(data.Names, [2]string{b.Name, b.ID})
	}
	for _, f := range run.catalog.APIFiles().Files() {
		data.Files = append(data.Files, file{Path: f.Path, Bytes: f.Bytes, Content: f.Content})
	}
	tools := run.catalog.Guest()
	if tools == nil {
		tools = []catalog.Compact{}
	}
	d, _ := json.Marshal(data)
	t, _ := json.Marshal(tools)
	return jsString(string(d)) + "," + jsString(string(t))
}

// Abort ends the run's suspended cells: their in-flight nested calls are
// cancelled and their snapshots dropped, so a later wait fails. Cells that
// are executing stop when the context given to Exec or Wait is cancelled.
func (run *Run) Abort() {
	run.rt.store.drop(func(st *state) bool { return st.run == run })
}

// EndSession drops the suspended runs and the stored values of a session (by
// session key and id).
func (r *Runtime) EndSession(sessionKey, sessionID string) {
	r.store.drop(func(st *state) bool {
		s := st.run.opts.Scope
		return s.SessionKey == sessionKey && s.SessionID == sessionID
	})
	if err := r.sessions.Drop(context.Background(), Session{sessionKey, sessionID}); err != nil {
		r.logger.Warn("code mode session state not dropped", "session", sessionID, "err", err)
	}
}

func (run *Run) clientTool(t *Tool) bool { return run.client[t] }
