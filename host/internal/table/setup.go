package table

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
)

// eagerSetupBytes bounds the guest data a cell gets whole: the convenience
// names and the MCP servers with their tools. A larger catalog's cell gets
// its MCP servers and the names and tools its source mentions; the guest
// asks the host for the others when they are called (see prelude.js and
// RATIONALE.md). ALL_TOOLS, the largest part, reaches only cells whose
// source names it. The data travels in the cell's source, and QuickJS reads
// such data at about 7 MB/s, so the bound keeps a cell's setup near a
// millisecond whatever the catalog's size.
const eagerSetupBytes = 16 << 10

// helpers the guest's tools object already has; convenience names never
// shadow them.
var guestHelpers = []string{"search", "describe", "call", "callValue"}

// Setup is a table's guest data, rendered once.
type Setup struct {
	full     string // the data of a small catalog, a JS string literal; empty for a large one
	bindings map[string]string
	servers  []serverSetup
	mcpWords map[string][]mcpRef // an MCP tool's identifier or exact name -> the tool

	guest    []catalog.Compact
	allOnce  sync.Once
	allTools string // the JSON of ALL_TOOLS, a JS string literal, made for the first cell that names it
}

type serverSetup struct {
	head  string   // `{"identifier":…,"name":…,"tools":[`
	tools []string // each tool's JSON, sorted by identifier
}

type mcpRef struct{ server, tool int }

// setupData is the first argument of __cm_setup. Partial says the guest has
// only part of the names and MCP tools, and asks the host for the others.
type setupData struct {
	Names [][2]string `json:"names"`
	// Others are the catalog tools without a convenience function, by name
	// and id, so that tools["web-search"] can say how to call it.
	Others  [][2]string `json:"others,omitempty"`
	MCP     []mcpSetup  `json:"mcp"`
	Partial bool        `json:"partial,omitempty"`
}

// mcpSetup is the guest data of one MCP server: its identifier, its exact
// name when that is a property too and differs, and its tools as
// [identifier, exact id] or [identifier, exact id, exact name] when the exact
// name is a property too and differs.
type mcpSetup struct {
	Identifier string     `json:"identifier"`
	Name       string     `json:"name,omitempty"`
	Tools      [][]string `json:"tools"`
}

func newSetup(c *catalog.Catalog) *Setup {
	s := &Setup{bindings: map[string]string{}, mcpWords: map[string][]mcpRef{}}
	data := setupData{Names: [][2]string{}, MCP: []mcpSetup{}}
	for _, b := range c.ConvenienceNames(guestHelpers) {
		data.Names = append(data.Names, [2]string{b.Name, b.ID})
		s.bindings[b.Name] = b.ID
	}
	for k, srv := range c.MCPServers() {
		ms := mcpSetup{Identifier: srv.Identifier, Tools: [][]string{}}
		if srv.Aliased && srv.Name != srv.Identifier {
			ms.Name = srv.Name
		}
		head, _ := json.Marshal(ms)
		ss := serverSetup{head: strings.TrimSuffix(string(head), "]}")}
		for i, t := range srv.Tools {
			tool := []string{t.Identifier, t.ID}
			s.mcpWords[t.Identifier] = append(s.mcpWords[t.Identifier], mcpRef{k, i})
			if t.Aliased && t.Name != t.Identifier {
				tool = append(tool, t.Name)
				s.mcpWords[t.Name] = append(s.mcpWords[t.Name], mcpRef{k, i})
			}
			ms.Tools = append(ms.Tools, tool)
			b, _ := json.Marshal(tool)
			ss.tools = append(ss.tools, string(b))
		}
		data.MCP = append(data.MCP, ms)
		s.servers = append(s.servers, ss)
	}
	tools := c.Guest()
	if tools == nil {
		tools = []catalog.Compact{}
	}
	for _, t := range tools {
		if s.bindings[t.Name] != t.ID {
			data.Others = append(data.Others, [2]string{t.Name, t.ID})
		}
	}
	s.guest = tools
	if d, _ := json.Marshal(data); len(d) <= eagerSetupBytes {
		s.full = bridge.Quote(string(d))
	}
	return s
}

// Args are the first arguments of __cm_setup for a cell: the data, and the
// JSON of ALL_TOOLS, or null when the cell's source does not name it.
func (s *Setup) Args(js string) string {
	tools := "null"
	if strings.Contains(js, "ALL_TOOLS") {
		s.allOnce.Do(func() {
			all, _ := json.Marshal(s.guest)
			s.allTools, s.guest = bridge.Quote(string(all)), nil
		})
		tools = s.allTools
	}
	if s.full != "" {
		return s.full + "," + tools
	}
	data := setupData{Names: [][2]string{}, Partial: true}
	picked := make([]map[int]bool, len(s.servers))
	for _, w := range words(js) {
		if id, ok := s.bindings[w]; ok {
			data.Names = append(data.Names, [2]string{w, id})
		}
		for _, r := range s.mcpWords[w] {
			if picked[r.server] == nil {
				picked[r.server] = map[int]bool{}
			}
			picked[r.server][r.tool] = true
		}
	}
	var b strings.Builder
	d, _ := json.Marshal(data.Names)
	b.WriteString(`{"partial":true,"names":`)
	b.Write(d)
	b.WriteString(`,"mcp":[`)
	for k, srv := range s.servers {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(srv.head)
		n := 0
		for i, t := range srv.tools { // server order, so the guest's members are too
			if picked[k][i] {
				if n > 0 {
					b.WriteByte(',')
				}
				b.WriteString(t)
				n++
			}
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return bridge.Quote(b.String()) + "," + tools
}

// Whole reports a table whose guest data every cell gets whole: a small
// catalog's.
func (s *Setup) Whole() bool { return s.full != "" }

// words are the runs of name characters in a cell's source (letters, digits,
// _, $, ., - and any non-ASCII), each whole and split at dots and dashes:
// every name a cell writes, as MCP.docs.getSum or MCP.docs["get-sum"], is
// among them. A name built at run time is not; the guest asks the host for
// it.
func words(js string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	isName := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '.' || c == '-' || c >= 0x80
	}
	for i := 0; i < len(js); {
		if !isName(js[i]) {
			i++
			continue
		}
		j := i
		for j < len(js) && isName(js[j]) {
			j++
		}
		run := js[i:j]
		add(run)
		for _, p := range strings.Split(run, ".") {
			add(p)
			for _, q := range strings.Split(p, "-") {
				add(q)
			}
		}
		for _, p := range strings.Split(run, "-") {
			add(p)
		}
		i = j
	}
	return out
}
