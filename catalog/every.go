package catalog

import "sync"

// every is the catalog as Tool Search sees it: every entry, MCP tools
// included, where the guest's tools object sees the others only (MCP tools
// have the MCP namespace there). It is built on first use: most runs are
// code mode's and never need it.
type every struct {
	once   sync.Once
	pos    []int
	byName map[string][]int
	index  searchIndex
}

func (c *Catalog) everyView() *every {
	v := &c.all
	v.once.Do(func() {
		v.pos = make([]int, len(c.entries))
		v.byName = make(map[string][]int, len(c.entries))
		for i := range c.entries {
			v.pos[i] = i
			v.byName[c.entries[i].Name] = append(v.byName[c.entries[i].Name], i)
		}
		v.index = newSearchIndex(c.entries, v.pos, nil)
	})
	return v
}

// SearchEvery ranks every entry, MCP tools included, as [Catalog.Search]
// ranks the guest-visible ones (same scores, limits and errors). An MCP
// entry's input is its input type, as MCP.$search gives it.
func (c *Catalog) SearchEvery(query string, limit int) ([]Compact, error) {
	v := c.everyView()
	top, err := c.rank(&v.index, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Compact, len(top))
	for r, k := range top {
		e := &c.entries[v.pos[k]]
		out[r] = e.Compact()
		if e.Source == SourceMCP {
			out[r].Input = hitInput(e.InputSchema)
		}
	}
	return out, nil
}

// ResolveEvery is [Catalog.Resolve] over every entry: an exact id (an MCP
// tool's too), or a name that one entry alone has. An unknown name's error
// ends with help, which says how to find a tool with the caller's tools.
func (c *Catalog) ResolveEvery(idOrName, help string) (Entry, error) {
	if i, ok := c.byID[idOrName]; ok {
		return c.entries[i], nil
	}
	v := c.everyView()
	return c.resolveName(idOrName, v.pos, v.byName, " "+help)
}
