package catalog

import "strings"

// MCPHit is one result of MCP.$search: the fields of a [Compact] entry
// (input is the tool's input as a TypeScript type, as the declaration files
// render it, and the description is shortened) and where the tool is.
type MCPHit struct {
	Path        string `json:"path"`   // the call path, as [MCPServer.CallPath]
	Server      string `json:"server"` // the server's identifier under MCP
	Name        string `json:"name"`   // the tool's own MCP name
	Method      string `json:"method"` // its identifier under MCP.<server>
	ID          string `json:"id"`
	Label       string `json:"label,omitempty"`
	Description string `json:"description"`
	Source      Source `json:"source"`
	SourceName  string `json:"sourceName"` // the server's name
	Input       string `json:"input"`
}

// maxHitInput bounds a hit's input type; a longer one is "unknown" and
// $api(method, { schema: true }) gives the schema.
const maxHitInput = 400

// mcpRef locates an MCP entry's tool: servers[s].Tools[t].
type mcpRef struct{ s, t int }

// MCPSearch ranks the MCP entries against query exactly as [Catalog.Search]
// ranks the others (same scores, limits and errors), with one addition: a
// tool's identifier counts as a second name, so "readGraph" finds
// read_graph as "read_graph" does.
func (c *Catalog) MCPSearch(query string, limit int) ([]MCPHit, error) {
	c.mcpSearchOnce.Do(c.buildMCPIndex)
	top, err := c.rank(&c.mcpIndex, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]MCPHit, len(top))
	for r, k := range top {
		ref := c.mcpRefs[k]
		s := &c.servers[ref.s]
		t := &s.Tools[ref.t]
		e := &c.entries[c.byID[t.ID]]
		input := hitInput(t.InputSchema)
		out[r] = MCPHit{
			Path: s.CallPath(t), Server: s.Identifier, Name: t.Name, Method: t.Identifier,
			ID: t.ID, Label: e.Label, Source: SourceMCP, SourceName: s.Name, Input: input,
			Description: truncate16(strings.Join(strings.Fields(t.Description), " "), maxAPISummary, "…"),
		}
	}
	return out, nil
}

// buildMCPIndex indexes the MCP entries on first use: most runs never
// search them, and Build's time is every run's.
func (c *Catalog) buildMCPIndex() {
	if s := c.shared; s != nil {
		c.mcp()
		s.mcpSearchOnce.Do(s.buildMCPIndex)
		c.mcpIndex, c.mcpRefs = s.mcpIndex, s.mcpRefs
		return
	}
	var pos []int
	for si := range c.mcp() {
		for ti := range c.servers[si].Tools {
			pos = append(pos, c.byID[c.servers[si].Tools[ti].ID])
			c.mcpRefs = append(c.mcpRefs, mcpRef{si, ti})
		}
	}
	c.mcpIndex = newSearchIndex(c.entries, pos, func(k int) string {
		r := c.mcpRefs[k]
		return c.servers[r.s].Tools[r.t].Identifier
	})
}

// hitInput renders an input schema as the one-line type of the parameter
// its declaration has.
func hitInput(schema []byte) string {
	v, _ := decodeJSON(schema)
	m, _ := v.(map[string]any)
	if props, _ := m["properties"].(map[string]any); len(props) == 0 {
		if ap, ok := m["additionalProperties"]; ok && ap != false {
			return "Record<string, unknown>"
		}
		return "Record<string, never>"
	}
	if t := dtsTypeOf(v); u16len(t) <= maxHitInput {
		return t
	}
	return unknownType
}
