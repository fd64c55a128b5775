package catalog

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every tool is a property by its identifier and, unless that would shadow
// a member or a probe name, by its exact name; no property means two tools.
func TestMCPExactNames(t *testing.T) {
	tools := []Tool{
		{Name: "read_graph", Origin: OriginMCP, Owner: "memory"},
		{Name: "get-sum", Origin: OriginMCP, Owner: "everything"},
		{Name: "x-y", Origin: OriginMCP, Owner: "s"},
		{Name: "x_y", Origin: OriginMCP, Owner: "s"},
		{Name: "xY2", Origin: OriginMCP, Owner: "s"}, // the identifier x_y would get without exact names
		{Name: "delete", Origin: OriginMCP, Owner: "s"},
		{Name: "then", Origin: OriginMCP, Owner: "s"},
		{Name: "toJSON", Origin: OriginMCP, Owner: "s"},
		{Name: "resources", Origin: OriginMCP, Owner: "s"},
		{Name: "a b", Origin: OriginMCP, Owner: "chrome-devtools"},
		{Name: "x", Origin: OriginMCP, Owner: "then"},
		{Name: "x", Origin: OriginMCP, Owner: "$search"},
	}
	c := mustBuild(t, tools, nil)
	type row struct {
		server, ident string
		serverAliased bool
		path          string
		aliased       bool
	}
	got := map[string]row{}
	for _, s := range c.MCPServers() {
		for _, tool := range s.Tools {
			got[tool.ID] = row{s.Identifier, tool.Identifier, s.Aliased, s.CallPath(&tool), tool.Aliased}
		}
	}
	want := map[string]row{
		"mcp:memory:read_graph":   {"memory", "readGraph", true, "MCP.memory.read_graph", true},
		"mcp:everything:get-sum":  {"everything", "getSum", true, `MCP.everything["get-sum"]`, true},
		"mcp:s:x-y":               {"s", "xY", true, `MCP.s["x-y"]`, true},
		"mcp:s:x_y":               {"s", "xY3", true, "MCP.s.x_y", true},
		"mcp:s:xY2":               {"s", "xY2", true, "MCP.s.xY2", true},
		"mcp:s:delete":            {"s", "delete2", true, "MCP.s.delete", true},
		"mcp:s:then":              {"s", "then2", true, "MCP.s.then2", false},
		"mcp:s:toJSON":            {"s", "toJSON2", true, "MCP.s.toJSON2", false},
		"mcp:s:resources":         {"s", "resources2", true, "MCP.s.resources2", false},
		"mcp:chrome-devtools:a b": {"chromeDevtools", "aB", true, `MCP.chromeDevtools["a b"]`, true},
		"mcp:then:x":              {"then2", "x", false, "MCP.then2.x", true},
		"mcp:$search:x":           {"search", "x", false, "MCP.search.x", true},
	}
	if !reflect.DeepEqual(got, want) {
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: got %+v, want %+v", id, got[id], w)
			}
		}
	}
	// Both property names reach the tool; a reserved exact name does not.
	for _, q := range []struct{ server, prop, id string }{
		{"memory", "readGraph", "mcp:memory:read_graph"},
		{"memory", "read_graph", "mcp:memory:read_graph"},
		{"everything", "get-sum", "mcp:everything:get-sum"},
		{"s", "xY3", "mcp:s:x_y"},
		{"s", "delete", "mcp:s:delete"},
		{"chrome-devtools", "a b", "mcp:chrome-devtools:a b"},
		{"chromeDevtools", "aB", "mcp:chrome-devtools:a b"},
		{"s", "then", ""},
		{"s", "resources", ""},
		{"then", "x", ""},
	} {
		mt, ok := c.MCPTool(q.server, q.prop)
		if mt.ID != q.id || ok != (q.id != "") {
			t.Errorf("MCPTool(%q, %q) = %q, %v; want %q", q.server, q.prop, mt.ID, ok, q.id)
		}
	}
	// No property is an identifier of one tool and the exact name of another.
	for _, s := range c.MCPServers() {
		props := map[string]string{}
		for _, tool := range s.Tools {
			for _, p := range []string{tool.Identifier, tool.Name} {
				if p == tool.Name && !tool.Aliased {
					continue
				}
				if other, dup := props[p]; dup && other != tool.ID {
					t.Errorf("MCP.%s[%q] is %s and %s", s.Identifier, p, other, tool.ID)
				}
				props[p] = tool.ID
			}
		}
	}
	for _, p := range ProbeNames() {
		if !serverReserved[p] || !rootReserved[p] {
			t.Errorf("probe name %q is not reserved", p)
		}
	}
}

// The declarations say that exact names work, and name a tool whose
// identifier camelCase does not give back; they stay free of broken
// comments whatever the names hold.
func TestMCPExactNamesInDeclarations(t *testing.T) {
	c := mustBuild(t, []Tool{
		{Name: "create_issue", Origin: OriginMCP, Owner: "git-hub", Description: "Create."},
		{Name: "createIssue", Origin: OriginMCP, Owner: "git-hub"},
		{Name: "then", Origin: OriginMCP, Owner: "git-hub"},
		{Name: "evilName", Origin: OriginMCP, Owner: "git-hub"},
		{Name: "evil*/name\n", Origin: OriginMCP, Owner: "git-hub"}, // evilName2
	}, nil)
	files := c.APIFiles()
	server, _ := files.Read("mcp/gitHub.d.ts")
	index, _ := files.Read("mcp/index.d.ts")
	for _, want := range []string{
		`// A tool's exact MCP name reaches it too: MCP.gitHub.create_issue is MCP.gitHub.createIssue2.`,
		"   * Create.\n   * @mcpName \"create_issue\"\n   */\n  function createIssue2(",
		`@mcpName "then" (not a property: call then2)`,
		`@mcpName "evil*\/name\n"`,
	} {
		if !strings.Contains(server, want) {
			t.Errorf("mcp/gitHub.d.ts lacks %q:\n%s", want, server)
		}
	}
	if strings.Contains(server, `@mcpName "createIssue"`) {
		t.Error("a name that is its own identifier needs no @mcpName")
	}
	for _, want := range []string{`readonly "git-hub": typeof MCP.gitHub;`, "$search(query: string, options?: { limit?: number }): Promise<McpSearchHit[]>;"} {
		if !strings.Contains(index, want) {
			t.Errorf("mcp/index.d.ts lacks %q:\n%s", want, index)
		}
	}
	for _, f := range files.Files() {
		checkCommentsClosed(t, f.Path, f.Content)
	}
	api, err := c.MCPServerAPI("gitHub", "MCP.gitHub.create_issue", false)
	if err != nil || len(api.Tools) != 1 || api.Tools[0].Name != "create_issue" {
		t.Errorf("$api by call path: %+v, %v", api, err)
	}
}

func TestMCPSearch(t *testing.T) {
	c := mustBuild(t, referenceServers(t), nil)
	hits, err := c.MCPSearch("read graph", 3)
	if err != nil || len(hits) == 0 {
		t.Fatalf("%v, %v", hits, err)
	}
	want := MCPHit{Path: "MCP.memory.read_graph", Server: "memory", Name: "read_graph", Method: "readGraph",
		ID: "mcp:memory:read_graph", Label: "Read Graph", Description: "Read the entire knowledge graph", Source: SourceMCP,
		SourceName: "memory", Input: "Record<string, never>"}
	if hits[0] != want {
		t.Errorf("first hit %+v, want %+v", hits[0], want)
	}
	for _, q := range []struct{ query, first string }{
		{"readGraph", "MCP.memory.read_graph"}, // the identifier is a name too
		{"read_graph", "MCP.memory.read_graph"},
		{"get-sum", `MCP.everything["get-sum"]`},
		{"getSum", `MCP.everything["get-sum"]`},
		{"sum of two numbers", `MCP.everything["get-sum"]`},
	} {
		hits, _ := c.MCPSearch(q.query, 1)
		if len(hits) != 1 || hits[0].Path != q.first {
			t.Errorf("MCPSearch(%q) = %+v, want %s first", q.query, hits, q.first)
		}
	}
	// The same limits and errors as Search; only MCP entries.
	if _, err := c.MCPSearch("x", -1); !errors.Is(err, ErrInvalidLimit) {
		t.Errorf("negative limit: %v", err)
	}
	all, _ := c.MCPSearch("", 1000)
	if len(all) != 37 {
		t.Errorf("an empty query lists %d tools, want all 37", len(all))
	}
	if slices.ContainsFunc(all, func(h MCPHit) bool { return h.Source != SourceMCP }) {
		t.Error("a non-MCP hit")
	}
	if hits, _ := c.MCPSearch("web_search", 5); len(hits) != 0 {
		t.Errorf("MCPSearch found a catalog tool: %+v", hits)
	}
	if hits, _ := c.MCPSearch("", 0); len(hits) != DefaultSearchLimit {
		t.Errorf("default limit: %d hits", len(hits))
	}
	// Input types follow the declarations, bounded.
	hits, _ = c.MCPSearch("search_files", 1)
	if got := hits[0].Input; got != "{ path: string; pattern: string; excludePatterns?: string[] }" {
		t.Errorf("search_files input %s", got)
	}
	var props []string
	for i := range 20 {
		props = append(props, fmt.Sprintf(`"%s%d":{"type":"string"}`, strings.Repeat("k", 40), i))
	}
	big := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	c2 := mustBuild(t, []Tool{{Name: "big", Origin: OriginMCP, Owner: "s", InputSchema: schema(big), Description: strings.Repeat("word ", 200)}}, nil)
	hits, _ = c2.MCPSearch("big", 1)
	if hits[0].Input != unknownType || u16len(hits[0].Description) > maxAPISummary {
		t.Errorf("unbounded hit: input %d units, description %d", u16len(hits[0].Input), u16len(hits[0].Description))
	}
}

// The catalog search keeps its own ranking: the alias only exists for MCP.
func TestSearchUnchangedByMCPIndex(t *testing.T) {
	c := mustBuild(t, mixedTools(), nil)
	before, _ := c.Search("create issue", 8)
	c.MCPSearch("create issue", 8)
	after, _ := c.Search("create issue", 8)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("Search changed: %v then %v", before, after)
	}
	hits, _ := c.MCPSearch("createIssue", 8)
	if len(hits) != 1 || hits[0].Path != "MCP.github.create_issue" {
		t.Errorf("MCPSearch = %+v", hits)
	}
}
