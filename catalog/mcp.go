package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/tool"
)

// MCPServer is one MCP server with catalogued tools, as the guest MCP object
// exposes it: MCP.<Identifier>.<tool>(input).
type MCPServer struct {
	Identifier string    // JS identifier under MCP
	Name       string    // the server name, as in the catalog ids
	Aliased    bool      // MCP[Name] is this server too (see [MCPTool] Aliased)
	Path       string    // its declaration file, mcp/<Identifier>.d.ts
	Tools      []MCPTool // sorted by Identifier
}

// MCPTool is one tool of an [MCPServer].
type MCPTool struct {
	Identifier string // JS identifier under MCP.<server>
	ID         string // the exact catalog id, mcp:<server>:<tool>
	Name       string // the tool's own name
	// Aliased reports whether MCP.<server>[Name] is this tool too, beside
	// MCP.<server>.<Identifier>. It is, unless Name is one of the server
	// object's own members ($api, resources, prompts) or a probe name.
	Aliased     bool
	Description string
	InputSchema json.RawMessage
	// Observed is the learned shape of its results, when it declares no
	// output schema.
	Observed *tool.Observed
	// Required lists the schema's required keys, in schema order. A call that
	// lacks one fails with "Missing required MCP namespace argument: a", one
	// that lacks several with "Missing required MCP namespace arguments: a, b".
	Required []string
	// Defaults are the top-level properties' schema defaults, by key order,
	// to apply for keys the call does not give.
	Defaults []MCPDefault
}

// MCPDefault is a property default of an MCP tool's input schema.
type MCPDefault struct {
	Key   string
	Value json.RawMessage
}

// Identifier limits and reserved words.
const maxIdentifier = 64

// jsReserved are names that cannot be declared as functions or namespaces
// in a declaration file, plus the object-model names that must never be
// used as property names.
var jsReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`break case catch class const continue debugger default delete do
		else enum export extends false finally for function if import in instanceof new null return
		super switch this throw true try typeof var void while with yield let static implements
		interface package private protected public await arguments eval
		__proto__ constructor prototype`) {
		jsReserved[w] = true
	}
}

// probeNames are the names that the language and ordinary code read on any
// object to find out what it is: a thenable check (then), JSON.stringify
// (toJSON), conversion to a primitive (toString, valueOf) and the rest of
// Object.prototype. No server or tool is a property by one of these names,
// by identifier or by exact name: an MCP tool named "then" would make
// `await MCP.<server>` call it. The guest prelude keeps the same list (its
// objects read these as absent, not as mistyped names); a host test checks
// that the two agree.
var probeNames = []string{"then", "toJSON", "toString", "toLocaleString", "valueOf", "constructor", "prototype",
	"__proto__", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
	"__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"}

// ProbeNames returns the names no MCP server or tool is a property by.
func ProbeNames() []string { return slices.Clone(probeNames) }

// serverReserved are members every MCP.<server> object has, plus the probe
// names; rootReserved the same for the MCP object itself.
var serverReserved, rootReserved = withProbes("$api", "resources", "prompts"), withProbes("$api", "$search")

func withProbes(members ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range append(members, probeNames...) {
		m[n] = true
	}
	return m
}

// toIdentifier turns a name into a camelCase JS identifier: it splits on
// characters outside [A-Za-z0-9], lower-cases the first word (an all-caps
// word entirely, a leading acronym up to its last capital), capitalises the
// rest, drops leading digits and falls back to fallback.
func toIdentifier(name, fallback string) string {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	var b strings.Builder
	for _, w := range words {
		if b.Len() == 0 {
			w = strings.TrimLeft(w, "0123456789")
			if w == "" {
				continue
			}
			b.WriteString(lowerHead(w))
		} else {
			b.WriteString(upperHead(w))
		}
		if b.Len() >= maxIdentifier {
			break
		}
	}
	id := b.String()
	if len(id) > maxIdentifier {
		id = id[:maxIdentifier]
	}
	if id == "" {
		return fallback
	}
	return id
}

func isUpperWord(w string) bool { return strings.ToUpper(w) == w }

func lowerHead(w string) string {
	if isUpperWord(w) {
		return strings.ToLower(w)
	}
	n := 0
	for n < len(w) && w[n] >= 'A' && w[n] <= 'Z' {
		n++
	}
	if n > 1 && n < len(w) {
		n-- // "HTTPServer" -> "httpServer"
	}
	return strings.ToLower(w[:n]) + w[n:]
}

func upperHead(w string) string {
	if isUpperWord(w) {
		w = strings.ToLower(w)
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// uniqueIdentifier returns base, or base2, base3, ... : the first one that is
// neither used nor reserved. It records the result in used.
func uniqueIdentifier(base string, used map[string]bool, reserved map[string]bool) string {
	id := base
	for n := 2; used[id] || jsReserved[id] || reserved[id]; n++ {
		id = fmt.Sprintf("%s%d", base, n)
	}
	used[id] = true
	return id
}

// mcp returns the MCP servers, grouped and named on first use.
func (c *Catalog) mcp() []MCPServer {
	c.mcpOnce.Do(c.buildMCP)
	return c.servers
}

// buildMCP groups the MCP entries by server and assigns identifiers.
// Servers get identifiers in server-name order and tools in tool-name order,
// so the same tool set always yields the same identifiers.
func (c *Catalog) buildMCP() {
	if c.shared != nil {
		c.servers, c.serverByID = c.shared.mcp(), c.shared.serverByID
		return
	}
	byServer := map[string][]int{}
	var names []string
	for i := range c.entries {
		e := &c.entries[i]
		if e.Source != SourceMCP {
			continue
		}
		if _, seen := byServer[e.SourceName]; !seen {
			names = append(names, e.SourceName)
		}
		byServer[e.SourceName] = append(byServer[e.SourceName], i)
	}
	slices.Sort(names)
	serverExact := exactNames(names, rootReserved)
	serverIDs := assignIdentifiers(names, "server", serverExact, rootReserved)
	c.serverByID = make(map[string]int, len(names))
	for k, name := range names {
		s := MCPServer{Name: name, Identifier: serverIDs[k], Aliased: serverExact[name]}
		s.Path = "mcp/" + s.Identifier + ".d.ts"
		idx := byServer[name]
		slices.SortFunc(idx, func(a, b int) int { return strings.Compare(c.entries[a].Name, c.entries[b].Name) })
		toolNames := make([]string, len(idx))
		for j, i := range idx {
			toolNames[j] = c.entries[i].Name
		}
		exact := exactNames(toolNames, serverReserved)
		ids := assignIdentifiers(toolNames, "tool", exact, serverReserved)
		for j, i := range idx {
			e := &c.entries[i]
			t := MCPTool{
				Identifier:  ids[j],
				ID:          e.ID,
				Name:        e.Name,
				Aliased:     exact[e.Name],
				Description: e.Description,
				InputSchema: e.InputSchema,
				Observed:    e.Observed,
			}
			t.Required, t.Defaults = inputContract(e.InputSchema)
			s.Tools = append(s.Tools, t)
		}
		slices.SortFunc(s.Tools, func(a, b MCPTool) int { return strings.Compare(a.Identifier, b.Identifier) })
		c.serverByID[s.Identifier] = len(c.servers)
		c.servers = append(c.servers, s)
	}
}

// exactNames returns the names that are properties as they are, beside
// their identifiers: all but the reserved ones.
func exactNames(names []string, reserved map[string]bool) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		if !reserved[n] {
			m[n] = true
		}
	}
	return m
}

// assignIdentifiers returns the identifier of each of names (sorted): an
// exact name that is already its own camelCase identifier keeps it, and the
// others take the first free of base, base2, base3, ... in name order, where
// every exact name counts as taken. So MCP.<server>.<x> never means one tool
// by identifier and another by exact name: of create_issue and createIssue,
// createIssue is MCP.s.createIssue and create_issue is MCP.s.createIssue2.
func assignIdentifiers(names []string, fallback string, exact, reserved map[string]bool) []string {
	used := maps.Clone(exact)
	out := make([]string, len(names))
	for i, n := range names {
		if exact[n] && !jsReserved[n] && toIdentifier(n, fallback) == n {
			out[i] = n
		}
	}
	for i, n := range names {
		if out[i] == "" {
			out[i] = uniqueIdentifier(toIdentifier(n, fallback), used, reserved)
		}
	}
	return out
}

// memberPath is the JavaScript expression for obj's member key: obj.key
// when key is an identifier, obj["key"] otherwise.
func memberPath(obj, key string) string {
	if isIdentifier(key) {
		return obj + "." + key
	}
	return obj + "[" + jsonQuote(key) + "]"
}

// CallPath is how a cell calls t: by its exact name where that is a
// property (MCP.memory.read_graph, MCP.everything["get-sum"]), otherwise
// by its identifier.
func (s *MCPServer) CallPath(t *MCPTool) string {
	key := t.Identifier
	if t.Aliased {
		key = t.Name
	}
	return memberPath("MCP."+s.Identifier, key)
}

// inputContract extracts the required keys and property defaults of a
// top-level object schema. Anything malformed is ignored.
func inputContract(schema json.RawMessage) ([]string, []MCPDefault) {
	v, _ := decodeJSON(schema)
	m, _ := v.(map[string]any)
	var required []string
	list, _ := m["required"].([]any)
	for _, r := range list {
		if name, ok := r.(string); ok && !slices.Contains(required, name) {
			required = append(required, name)
		}
	}
	var defaults []MCPDefault
	props, _ := m["properties"].(map[string]any)
	for key, p := range props {
		pm, _ := p.(map[string]any)
		if d, has := pm["default"]; has {
			if raw, err := json.Marshal(d); err == nil {
				defaults = append(defaults, MCPDefault{Key: key, Value: raw})
			}
		}
	}
	slices.SortFunc(defaults, func(a, b MCPDefault) int { return strings.Compare(a.Key, b.Key) })
	return required, defaults
}

// MCPServers returns the MCP servers with catalogued tools, in identifier
// assignment order (by server name). The slices inside are shared with the
// catalog and must not be modified.
func (c *Catalog) MCPServers() []MCPServer { return slices.Clone(c.mcp()) }

// MCPTool maps MCP.<server>.<tool> back to its tool, and so to its exact
// catalog id. server and tool are the property names a cell uses: the
// identifiers, or the exact names where those are properties too.
func (c *Catalog) MCPTool(server, tool string) (MCPTool, bool) {
	c.mcp()
	si, ok := c.serverByID[server]
	if !ok {
		si = slices.IndexFunc(c.servers, func(s MCPServer) bool { return s.Aliased && s.Name == server })
		if si < 0 {
			return MCPTool{}, false
		}
	}
	tools := c.servers[si].Tools
	k, found := slices.BinarySearchFunc(tools, tool, func(t MCPTool, id string) int { return strings.Compare(t.Identifier, id) })
	if !found {
		if k = slices.IndexFunc(tools, func(t MCPTool) bool { return t.Aliased && t.Name == tool }); k < 0 {
			return MCPTool{}, false
		}
	}
	return tools[k], true
}

// MCPAPIServer names a server in an $api result.
type MCPAPIServer struct {
	Identifier string `json:"identifier"`
	ServerName string `json:"serverName"`
	ToolCount  int    `json:"toolCount,omitempty"`
}

// MCPRootAPI is what MCP.$api() returns.
type MCPRootAPI struct {
	Kind    string         `json:"kind"`  // "mcp_api"
	Scope   string         `json:"scope"` // "root"
	Header  string         `json:"header"`
	Servers []MCPAPIServer `json:"servers"`
	Note    string         `json:"note"`
}

// MCPAPITool describes one tool in an $api result.
type MCPAPITool struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// MCPServerAPI is what MCP.<server>.$api(selector?, { schema? }) returns.
type MCPServerAPI struct {
	Kind    string                     `json:"kind"`  // "mcp_api"
	Scope   string                     `json:"scope"` // "tool" for exactly one selected tool, else "server"
	Server  MCPAPIServer               `json:"server"`
	Header  string                     `json:"header"`
	Tools   []MCPAPITool               `json:"tools"`
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"` // input schemas by method, with {schema: true}
}

const (
	apiKind       = "mcp_api"
	maxAPISummary = 300
	rootAPINote   = "Call MCP.<server>.$api() for one server's declarations, MCP.<server>.$api(\"tool\", { schema: true }) for a tool's JSON input schema, or read mcp/<server>.d.ts with API.read."
)

// MCPRootAPI returns the MCP.$api() result: mcp/index.d.ts as the header and
// one summary per server.
func (c *Catalog) MCPRootAPI() MCPRootAPI {
	r := MCPRootAPI{Kind: apiKind, Scope: "root", Header: c.renderIndex(), Servers: []MCPAPIServer{}, Note: rootAPINote}
	for _, s := range c.mcp() {
		r.Servers = append(r.Servers, MCPAPIServer{Identifier: s.Identifier, ServerName: s.Name, ToolCount: len(s.Tools)})
	}
	return r
}

// MCPServerAPI returns the MCP.<server>.$api(selector, {schema}) result.
// An empty selector selects every tool; otherwise tools are selected by
// method (identifier), path (MCP.<server>.<method>, <server>.<method> or
// the call path by exact name) or original tool name. The header is the server's declarations restricted to
// the selection. A selector that matches nothing is an error matching
// [ErrUnknownMCPTool]; so is an unknown server identifier.
func (c *Catalog) MCPServerAPI(server, selector string, schema bool) (MCPServerAPI, error) {
	c.mcp()
	si, ok := c.serverByID[server]
	if !ok {
		return MCPServerAPI{}, &guestError{ErrUnknownMCPTool, "Unknown MCP server: " + echo(server)}
	}
	s := &c.servers[si]
	var picked []*MCPTool
	for k := range s.Tools {
		t := &s.Tools[k]
		if selector == "" || selector == t.Identifier || selector == t.Name ||
			selector == "MCP."+s.Identifier+"."+t.Identifier || selector == s.Identifier+"."+t.Identifier ||
			selector == s.CallPath(t) {
			picked = append(picked, t)
		}
	}
	if len(picked) == 0 {
		return MCPServerAPI{}, &guestError{ErrUnknownMCPTool, fmt.Sprintf("Unknown MCP tool: %s. Call MCP.%s.$api() to list the tools of this server.", echo(selector), s.Identifier)}
	}
	r := MCPServerAPI{
		Kind: apiKind, Scope: "server",
		Server: MCPAPIServer{Identifier: s.Identifier, ServerName: s.Name},
		Header: renderServer(s, picked, selector == ""),
	}
	if len(picked) == 1 && selector != "" {
		r.Scope = "tool"
	}
	if schema {
		r.Schemas = map[string]json.RawMessage{}
	}
	for _, t := range picked {
		r.Tools = append(r.Tools, MCPAPITool{
			Method: t.Identifier, Path: "MCP." + s.Identifier + "." + t.Identifier, Name: t.Name,
			Description: truncate16(strings.Join(strings.Fields(t.Description), " "), maxAPISummary, "…"),
		})
		if schema {
			r.Schemas[t.Identifier] = t.InputSchema
		}
	}
	return r, nil
}
