// Package catalog is the hidden tool catalog of a Code Mode run: catalog
// entries and their ids, the guest views behind ALL_TOOLS and tools.*, search
// ranking, resolution for describe and call, convenience names, compact
// TypeScript hints from JSON Schema, the quick index of the exec description,
// and the MCP declaration files served through API.list and API.read.
//
// The package is pure: it runs no engine, talks to no MCP server and does no
// I/O. A [Catalog] is immutable once built and safe for concurrent use.
package catalog

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/seed11a79d2d/codemode/tool"
)

// Origin says where a tool comes from. It decides the catalog order, the
// entry's source and owner, and whether its schemas are trusted.
type Origin int

// Origins, in catalog order. The zero value is OriginCore.
const (
	OriginCore           Origin = iota // built into the host or registered by the embedding program
	OriginBundledPlugin                // a plugin shipped with the host
	OriginExternalPlugin               // a plugin loaded from elsewhere
	OriginMCP                          // a tool of a downstream MCP server
	OriginClient                       // a tool the caller supplies for one run
)

func (o Origin) String() string {
	switch o {
	case OriginCore:
		return "core"
	case OriginBundledPlugin:
		return "bundled-plugin"
	case OriginExternalPlugin:
		return "external-plugin"
	case OriginMCP:
		return "mcp"
	case OriginClient:
		return "client"
	}
	return fmt.Sprintf("Origin(%d)", int(o))
}

// Source is the source field of a catalog entry.
type Source string

// Sources. Core and plugin tools share SourceOpenClaw; the plugin id is the
// entry's SourceName.
const (
	SourceOpenClaw Source = "openclaw"
	SourceMCP      Source = "mcp"
	SourceClient   Source = "client"
)

// Tool is one tool of a run's effective tool list, the input to [Build].
type Tool struct {
	Name        string
	Label       string
	Description string
	Origin      Origin
	// Owner is the plugin id for plugin tools and the server name for MCP
	// tools (both required), and the owner for client tools ("client" when
	// empty). It is ignored for core tools.
	Owner string
	// InputSchema and OutputSchema are JSON Schemas. An empty InputSchema is
	// catalogued as {}. OutputSchema is optional and trusted only for core and
	// plugin tools. Build keeps these slices; do not modify them afterwards.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// DirectOnly tools stay visible to the model and are never catalogued.
	DirectOnly bool
	// Observed is the learned shape of an MCP tool's results, shown in its
	// declaration when it declares no output schema.
	Observed *tool.Observed
	// ReplaySafe marks a read-only core or plugin tool that a restart-safe
	// run may call. It is ignored for MCP and client tools. A core tool named
	// on the audited read-only list ([AuditedReplaySafe]) is replay-safe
	// without it.
	ReplaySafe bool
	// Control marks the host's own control tools (the code-mode exec and
	// wait); they are never catalogued. The Tool Search controls
	// tool_search_code, tool_search, tool_describe and tool_call are omitted
	// by name whatever this flag says. A shell tool that happens to be named
	// exec is an ordinary tool: it is catalogued as openclaw:core:exec.
	Control bool
}

// auditedReplaySafe names the core tools audited as read-only: a
// restart-safe run may call them even when they are not marked ReplaySafe,
// because a replay after a restart repeats nothing but reads. The audit is of
// the core tool behind each name, so the list covers core tools only; a
// plugin or client tool of the same name is not replay-safe unless marked.
var auditedReplaySafe = map[string]bool{
	"read": true, "search": true, "find": true, "grep": true, "glob": true, "ls": true,
	"web_search": true, "web_fetch": true, "x_search": true, "memory_get": true,
	"sessions_list": true, "sessions_history": true, "sessions_search": true,
	"agents_list": true, "get_goal": true, "update_plan": true,
	"tool_search": true, "tool_describe": true, "image": true,
}

// AuditedReplaySafe reports whether name is on the audited list of read-only
// core tools, which are replay-safe whether or not they are marked.
func AuditedReplaySafe(name string) bool { return auditedReplaySafe[name] }

// toolSearchControls are never catalogued, whoever supplies them.
var toolSearchControls = map[string]bool{
	"tool_search_code": true, "tool_search": true, "tool_describe": true, "tool_call": true,
}

// Entry is one catalogued tool.
type Entry struct {
	ID          string
	Name        string
	Label       string
	Description string
	Source      Source
	SourceName  string // "core", the plugin id, the MCP server name or the client owner
	Origin      Origin
	// Input is the compact input hint: the rendered [InputHint] for core and
	// plugin tools, "unknown" for MCP and client tools.
	Input string
	// Output is the complete compact output hint of a trusted output schema,
	// or empty.
	Output       string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	ReplaySafe   bool
	Observed     *tool.Observed
}

// Trusted reports whether the entry's schemas come from the host (core and
// plugin tools) rather than from an MCP peer or the caller.
func (e *Entry) Trusted() bool { return e.Source == SourceOpenClaw }

// Compact is the JSON form of an entry in ALL_TOOLS and search results
// (ToolCatalogEntry in the guest API).
type Compact struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Label       string `json:"label,omitempty"`
	Description string `json:"description"`
	Source      Source `json:"source"`
	SourceName  string `json:"sourceName,omitempty"`
	Input       string `json:"input"`
	Output      string `json:"output,omitempty"`
}

// Described is the JSON form returned by tools.describe
// (ToolCatalogEntryWithSchema in the guest API).
type Described struct {
	Compact
	Parameters   json.RawMessage `json:"parameters"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// Compact returns the entry's compact form.
func (e *Entry) Compact() Compact {
	return Compact{
		ID: e.ID, Name: e.Name, Label: e.Label, Description: e.Description,
		Source: e.Source, SourceName: e.SourceName, Input: e.Input, Output: e.Output,
	}
}

// Described returns the entry's describe form.
func (e *Entry) Described() Described {
	return Described{Compact: e.Compact(), Parameters: e.InputSchema, OutputSchema: e.OutputSchema}
}

// BuildOptions configures [Build]. A nil *BuildOptions means the defaults.
type BuildOptions struct {
	// SearchDefaultLimit is the number of search results when the guest
	// gives no limit. Zero means 8; it is clamped to MaxSearchLimit.
	SearchDefaultLimit int
	// MaxSearchLimit caps every search. Zero means 50; it is clamped to 1..50.
	MaxSearchLimit int
	// Reuse is a catalog built before, for example without a run's client
	// tools: a tool it holds unchanged (same id, texts, flags and schema
	// bytes) takes its entry as it is, without rendering its hints again.
	Reuse *Catalog
}

// Search limits.
const (
	DefaultSearchLimit = 8
	MaxSearchLimit     = 50
)

// Catalog is the hidden catalog of one run. It is immutable and safe for
// concurrent use.
type Catalog struct {
	entries      []Entry
	byID         map[string]int
	guest        []int            // indices of non-MCP entries, catalog order
	guestByName  map[string][]int // non-MCP entries by exact name
	defaultLimit int
	maxLimit     int
	indexOnce    sync.Once
	index        searchIndex // built on the first search
	counts       SourceCounts

	mcpOnce    sync.Once
	servers    []MCPServer
	serverByID map[string]int // server identifier -> servers index

	mcpSearchOnce sync.Once
	mcpIndex      searchIndex // of the MCP entries, positions index mcpRefs
	mcpRefs       []mcpRef

	all every // Tool Search's view

	// shared is the catalog this one extends with client entries (see
	// extends); its derived data serves this one.
	shared *Catalog

	quickOnce   sync.Once
	quickIndex  string
	exampleOnce sync.Once
	example     struct {
		query     string
		empty, ok bool
	}
	filesOnce sync.Once
	files     *APIFiles
}

// Build catalogues the tools of one run. It omits control tools and
// direct-only tools, orders the rest core, bundled plugins, external plugins,
// MCP, client (keeping the given order within each origin), assigns ids
// (openclaw:core:<tool>, openclaw:<pluginId>:<tool>, mcp:<server>:<tool>,
// client:<owner>:<tool>) and computes the compact hints. Two tools with the
// same id are an error matching [ErrDuplicateID]; a tool without a name, a
// plugin or MCP tool without an owner, or a schema that is not valid JSON is
// an error matching [ErrInvalidTool].
func Build(tools []Tool, opts *BuildOptions) (*Catalog, error) {
	var o BuildOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxSearchLimit <= 0 || o.MaxSearchLimit > MaxSearchLimit {
		o.MaxSearchLimit = MaxSearchLimit
	}
	if o.SearchDefaultLimit <= 0 {
		o.SearchDefaultLimit = DefaultSearchLimit
	}
	o.SearchDefaultLimit = min(o.SearchDefaultLimit, o.MaxSearchLimit)

	kept := make([]int, 0, len(tools))
	for i := range tools {
		t := &tools[i]
		if t.Control || t.DirectOnly || toolSearchControls[t.Name] {
			continue
		}
		if t.Origin < OriginCore || t.Origin > OriginClient {
			return nil, fmt.Errorf("catalog: tool %q: %w: unknown origin %d", t.Name, ErrInvalidTool, int(t.Origin))
		}
		kept = append(kept, i)
	}
	slices.SortStableFunc(kept, func(a, b int) int { return cmp.Compare(tools[a].Origin, tools[b].Origin) })

	c := &Catalog{
		byID:         make(map[string]int, len(kept)),
		guestByName:  make(map[string][]int, len(kept)),
		defaultLimit: o.SearchDefaultLimit,
		maxLimit:     o.MaxSearchLimit,
	}
	entries, reused, err := newEntries(tools, kept, o.Reuse)
	if err != nil {
		return nil, err
	}
	if r := o.Reuse; r != nil && extends(entries, reused, r) {
		c.shared = r
	}
	// The entries are already in catalog order; index them in place rather
	// than copying each one.
	c.entries = entries
	c.guest = make([]int, 0, len(entries))
	for n := range entries {
		e := &entries[n]
		if _, dup := c.byID[e.ID]; dup {
			return nil, fmt.Errorf("catalog: %w: %q", ErrDuplicateID, e.ID)
		}
		c.byID[e.ID] = n
		switch e.Source {
		case SourceOpenClaw:
			c.counts.OpenClaw++
		case SourceMCP:
			c.counts.MCP++
		case SourceClient:
			c.counts.Client++
		}
		if e.Source != SourceMCP {
			c.guest = append(c.guest, n)
			c.guestByName[e.Name] = append(c.guestByName[e.Name], n)
		}
	}
	return c, nil
}

var emptySchema = json.RawMessage(`{}`)

// ID is the catalog id <source>:<owner>:<name> of a tool. The host names the
// resource and prompt operations of an MCP server with it too, as
// ID(SourceMCP, server, method) (mcp:docs:resources/read): policy and hooks
// then match them with the same ids as that server's tools.
func ID(source Source, owner, name string) string {
	return string(source) + ":" + owner + ":" + name
}

// Identify is a tool's catalog identity: its entry's source and source name
// and its id. It is the one place that decides them; the host's policy and
// dispatch read them from here. The source name is "core" for core tools,
// the owner for plugin and MCP tools (empty when there is none: Build refuses
// such a tool), and the owner or "client" for client tools.
func Identify(origin Origin, owner, name string) (source Source, sourceName, id string) {
	switch origin {
	case OriginCore:
		source, sourceName = SourceOpenClaw, "core"
	case OriginBundledPlugin, OriginExternalPlugin:
		source, sourceName = SourceOpenClaw, owner
	case OriginMCP:
		source, sourceName = SourceMCP, owner
	case OriginClient:
		source, sourceName = SourceClient, owner
		if sourceName == "" {
			sourceName = "client"
		}
	}
	return source, sourceName, ID(source, sourceName, name)
}

// newEntries makes the entries of tools[kept[...]], rendering hints on up to
// GOMAXPROCS goroutines. The first error in kept order wins, so the result
// does not depend on scheduling.
func newEntries(tools []Tool, kept []int, reuse *Catalog) ([]Entry, []bool, error) {
	entries := make([]Entry, len(kept))
	reused := make([]bool, len(kept))
	errs := make([]error, len(kept))
	const chunk = 256
	workers := min(runtime.GOMAXPROCS(0), (len(kept)+chunk-1)/chunk)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= len(kept) {
					return
				}
				for k := start; k < min(start+chunk, len(kept)); k++ {
					t := &tools[kept[k]]
					if e, ok := reuse.reusable(t); ok {
						entries[k], reused[k] = e, true
						continue
					}
					entries[k], errs[k] = newEntry(t)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return entries, reused, nil
}

// extends reports whether entries are r's, reused unchanged and in order,
// followed by client entries only: then everything derived from the core,
// plugin and MCP entries (the quick index, the MCP servers, their search
// index and declaration files) is r's too.
func extends(entries []Entry, reused []bool, r *Catalog) bool {
	if len(entries) < len(r.entries) {
		return false
	}
	for i := range r.entries {
		if !reused[i] || entries[i].ID != r.entries[i].ID {
			return false
		}
	}
	for i := len(r.entries); i < len(entries); i++ {
		if entries[i].Source != SourceClient {
			return false
		}
	}
	return true
}

// reusable returns c's entry for t when t is the tool it was built from.
func (c *Catalog) reusable(t *Tool) (Entry, bool) {
	if c == nil {
		return Entry{}, false
	}
	_, _, id := Identify(t.Origin, t.Owner, t.Name)
	i, ok := c.byID[id]
	if !ok {
		return Entry{}, false
	}
	e := c.entries[i]
	in := t.InputSchema
	if len(in) == 0 {
		in = emptySchema
	}
	replaySafe := e.ReplaySafe
	if e.Trusted() {
		replaySafe = t.ReplaySafe || t.Origin == OriginCore && auditedReplaySafe[t.Name]
	}
	same := e.Origin == t.Origin && e.Label == t.Label && e.Description == t.Description && e.ReplaySafe == replaySafe &&
		bytes.Equal(e.InputSchema, in) && bytes.Equal(e.OutputSchema, t.OutputSchema) && sameObserved(e.Observed, t.Observed)
	return e, same
}

func sameObserved(a, b *tool.Observed) bool {
	return a == b || a != nil && b != nil && *a == *b
}

func newEntry(t *Tool) (Entry, error) {
	if t.Name == "" {
		return Entry{}, fmt.Errorf("catalog: %w: empty name", ErrInvalidTool)
	}
	e := Entry{
		Name: t.Name, Label: t.Label, Description: t.Description, Origin: t.Origin,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Observed: t.Observed,
	}
	if len(e.InputSchema) == 0 {
		e.InputSchema = emptySchema
	}
	e.Source, e.SourceName, e.ID = Identify(t.Origin, t.Owner, t.Name)
	if e.SourceName == "" {
		return Entry{}, fmt.Errorf("catalog: tool %q: %w: %s tool without owner", t.Name, ErrInvalidTool, t.Origin)
	}
	if !e.Trusted() {
		if !json.Valid(e.InputSchema) || (len(e.OutputSchema) > 0 && !json.Valid(e.OutputSchema)) {
			return Entry{}, fmt.Errorf("catalog: tool %q: %w: schema is not valid JSON", e.ID, ErrInvalidTool)
		}
		e.Input = unknownType
		return e, nil
	}
	e.ReplaySafe = t.ReplaySafe || t.Origin == OriginCore && auditedReplaySafe[t.Name]
	in, ok := hintOfRaw(e.InputSchema, inputLimits)
	if !ok {
		return Entry{}, fmt.Errorf("catalog: tool %q: %w: input schema is not valid JSON", e.ID, ErrInvalidTool)
	}
	e.Input = in.Text
	if len(e.OutputSchema) > 0 {
		out, ok := hintOfRaw(e.OutputSchema, outputLimits)
		if !ok {
			return Entry{}, fmt.Errorf("catalog: tool %q: %w: output schema is not valid JSON", e.ID, ErrInvalidTool)
		}
		if out.Complete {
			e.Output = out.Text
		}
	}
	return e, nil
}

// hintOfRaw renders the hint of a raw schema; ok is false when it is not
// valid JSON.
func hintOfRaw(raw json.RawMessage, lim hintLimits) (Hint, bool) {
	v, ok := decodeSchema(raw)
	if !ok {
		return Hint{}, false
	}
	return hintOf(v, lim), true
}

// Len returns the number of catalogued entries, MCP included.
func (c *Catalog) Len() int { return len(c.entries) }

// Entries returns every entry in catalog order, MCP included. The schema
// slices are shared with the catalog and must not be modified.
func (c *Catalog) Entries() []Entry { return slices.Clone(c.entries) }

// Lookup finds an entry by exact id, MCP entries included. The host uses it
// to dispatch a call to its exact catalog id; guest look-ups go through
// [Catalog.Resolve].
func (c *Catalog) Lookup(id string) (Entry, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Entry{}, false
	}
	return c.entries[i], true
}

// Guest returns the compact entries behind ALL_TOOLS: every entry except MCP
// entries, in catalog order, descriptions included.
func (c *Catalog) Guest() []Compact {
	out := make([]Compact, len(c.guest))
	for k, i := range c.guest {
		out[k] = c.entries[i].Compact()
	}
	return out
}

// SourceCounts is the catalog-size breakdown reported in telemetry.
type SourceCounts struct {
	OpenClaw int `json:"openclaw"`
	MCP      int `json:"mcp"`
	Client   int `json:"client"`
}

// Sources counts the entries of each source.
func (c *Catalog) Sources() SourceCounts { return c.counts }

// Describe resolves idOrName like [Catalog.Resolve] and returns the entry's
// describe form: the compact entry plus parameters and outputSchema.
func (c *Catalog) Describe(idOrName string) (Described, error) {
	e, err := c.Resolve(idOrName)
	if err != nil {
		return Described{}, err
	}
	return e.Described(), nil
}

// helperNames are the members of the guest tools object that convenience
// functions must never shadow.
var helperNames = []string{"search", "describe", "call", "callValue"}

// Binding is one convenience function of the guest tools object.
type Binding struct {
	Name string // the property name on tools
	ID   string // the exact catalog id it calls
}

// ConvenienceNames returns the convenience functions to install on the guest
// tools object, in catalog order: names of non-MCP entries that are
// identifier-shaped (^[A-Za-z_$][A-Za-z0-9_$]*$), occur exactly once among
// non-MCP entries, and collide neither with a helper (search, describe, call,
// callValue), nor with __proto__, nor with any name in reserved. Names are
// not normalised: web-search gets no convenience function.
func (c *Catalog) ConvenienceNames(reserved []string) []Binding {
	var out []Binding
	for _, i := range c.guest {
		e := &c.entries[i]
		if !isIdentifier(e.Name) || len(c.guestByName[e.Name]) != 1 || e.Name == "__proto__" ||
			slices.Contains(helperNames, e.Name) || slices.Contains(reserved, e.Name) {
			continue
		}
		out = append(out, Binding{Name: e.Name, ID: e.ID})
	}
	return out
}
