package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

// mcpMethods are the MCP requests a cell makes through MCP.<server>.resources
// and MCP.<server>.prompts. Each, on each server, is an operation with the
// catalog id mcp:<server>:<method> that runs through execute like a tool:
// the [Policy] names it by its method (on every server) or by id, and hooks
// see it as a nested call with ToolEvent.MCPMethod set. The ids cannot be a tool's: an
// MCP tool named like one of these is dropped (see apply). MCP's
// tool-name rule (letters, digits, "_", "-" and ".") already leaves "/" out,
// but clients need not enforce it, and ours does not.
var mcpMethods = []string{"resources/list", "resources/read", "resources/templates/list", "prompts/list", "prompts/get"}

func isMCPMethod(name string) bool { return slices.Contains(mcpMethods, name) }

// mcpSearch serves MCP.$search(query, { limit }), with tools.search's
// argument rules.
func (run *Run) mcpSearch(query, limit json.RawMessage) (any, error) {
	q, n, err := searchArgs(query, limit)
	if err != nil {
		return nil, err
	}
	res, err := run.catalog.MCPSearch(q, n)
	if res == nil && err == nil {
		res = []catalog.MCPHit{}
	}
	return res, err
}

// indexMCP maps the table's MCP tool ids to their namespace metadata, its
// MCP server identifiers to their names, and each server's tools by
// identifier and by exact name.
func (t *table) indexMCP() {
	t.mcpTools = map[string]catalog.MCPTool{}
	t.mcpServers = map[string]string{}
	t.mcpNames = map[string]map[string]catalog.MCPTool{}
	for _, s := range t.catalog.MCPServers() {
		t.mcpServers[s.Identifier] = s.Name
		byName := make(map[string]catalog.MCPTool, 2*len(s.Tools))
		for _, tool := range s.Tools {
			t.mcpTools[tool.ID] = tool
			byName[tool.Identifier] = tool
		}
		for _, tool := range s.Tools {
			if _, taken := byName[tool.Name]; tool.Aliased && !taken {
				byName[tool.Name] = tool
			}
		}
		t.mcpNames[s.Identifier] = byName
	}
}

// indexMCPOperations adds to byID the resource and prompt operations the
// policy keeps, on each catalogued server an MCPSource serves.
func (t *table) indexMCPOperations(p *Policy) {
	t.mcpOps = map[string]string{}
	for _, s := range t.catalog.MCPServers() {
		src := t.owners[s.Name]
		if src == nil {
			continue
		}
		for _, m := range mcpMethods {
			id := catalog.ID(catalog.SourceMCP, s.Name, m)
			if _, dup := t.mcpOps[id]; dup || !p.keeps(m, id) {
				continue
			}
			op := mcpOperation(src, s.Name, m)
			t.mcpOps[id] = m
			t.byID[id] = op
			if named(p.Approval, m, id) {
				t.approval[op] = true
			}
		}
	}
}

// mcpOperation is the executable tool of one operation: its result is the
// MCP result as details, like an MCP tool's.
func mcpOperation(src tool.MCPSource, server, method string) *tool.Tool {
	return &tool.Tool{Name: method, MCPServer: server,
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			v, err := src.MCPRequest(ctx, server, method, c.Input)
			if errors.Is(err, tool.ErrUnknownServer) {
				err = fmt.Errorf("MCP server %s does not serve %s", server, method)
			}
			return tool.Result{Details: v}, err
		}}
}

// MCPServers names the run's MCP servers that serve resources and prompts,
// in catalog order.
func (run *Run) MCPServers() []string {
	if run.catalog == nil {
		return nil
	}
	var out []string
	for _, s := range run.catalog.MCPServers() {
		if run.owners[s.Name] != nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// MCPRequest runs one resource or prompt operation (an [tool.MCPSource]'s
// method) on a server for the model's client directly, as the MCP result.
// The policy and hooks apply as to a cell's operation (tool.KindDirect, tool
// id mcp:<server>:<method>); an operation the policy refused is an error.
func (run *Run) MCPRequest(ctx context.Context, callID, server, method string, params json.RawMessage) (any, error) {
	def, id, err := run.operation(server, method)
	if err != nil {
		return nil, err
	}
	ev := tool.Event{ToolKind: tool.KindDirect, ToolName: method, ToolID: id, MCPMethod: method, CallID: callID, Input: orEmpty(params), Scope: run.opts.Scope}
	res, err := run.invoke(ctx, def, &ev)
	return res.Details, err
}

// ServesMCP reports whether the runtime has an [tool.MCPSource], whose servers'
// resources and prompts a server of its surface can offer.
func (r *Runtime) ServesMCP() bool {
	for _, s := range r.sources {
		if _, ok := s.(tool.MCPSource); ok {
			return true
		}
	}
	return false
}
