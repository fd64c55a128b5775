package table

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

// mcpMethods are the MCP requests a cell makes through MCP.<server>.resources
// and MCP.<server>.prompts. Each, on each server, is an operation with the
// catalog id mcp:<server>:<method> that runs through Call like a tool: the
// [Policy] names it by its method (on every server) or by id, and hooks see
// it as a nested call with Event.MCPMethod set. The ids cannot be a tool's:
// an MCP tool named like one of these is dropped (see apply). MCP's
// tool-name rule (letters, digits, "_", "-" and ".") already leaves "/" out,
// but clients need not enforce it, and ours does not.
var mcpMethods = []string{"resources/list", "resources/read", "resources/templates/list", "prompts/list", "prompts/get"}

// IsMCPMethod reports a resource or prompt operation's method.
func IsMCPMethod(name string) bool { return slices.Contains(mcpMethods, name) }

// indexMCP maps the table's MCP tool ids to their namespace metadata, its
// MCP server identifiers to their names, and each server's tools by
// identifier and by exact name.
func (t *Table) indexMCP() {
	t.MCPTools = map[string]catalog.MCPTool{}
	t.MCPServers = map[string]string{}
	t.MCPNames = map[string]map[string]catalog.MCPTool{}
	for _, s := range t.Catalog.MCPServers() {
		t.MCPServers[s.Identifier] = s.Name
		byName := make(map[string]catalog.MCPTool, 2*len(s.Tools))
		for _, tool := range s.Tools {
			t.MCPTools[tool.ID] = tool
			byName[tool.Identifier] = tool
		}
		for _, tool := range s.Tools {
			if _, taken := byName[tool.Name]; tool.Aliased && !taken {
				byName[tool.Name] = tool
			}
		}
		t.MCPNames[s.Identifier] = byName
	}
}

// indexMCPOperations adds to ByID the resource and prompt operations the
// policy keeps, on each catalogued server an MCPSource serves.
func (t *Table) indexMCPOperations(p *Policy) {
	t.MCPOps = map[string]string{}
	for _, s := range t.Catalog.MCPServers() {
		src := t.Owners[s.Name]
		if src == nil {
			continue
		}
		for _, m := range mcpMethods {
			id := catalog.ID(catalog.SourceMCP, s.Name, m)
			if _, dup := t.MCPOps[id]; dup || !p.Keeps(m, id) {
				continue
			}
			op := mcpOperation(src, s.Name, m)
			t.MCPOps[id] = m
			t.ByID[id] = op
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

// Operation is the executor and id of a server's resource or prompt
// operation, when the policy keeps it.
func (t *Table) Operation(server, method string) (*tool.Tool, string, error) {
	if !IsMCPMethod(method) {
		return nil, "", fmt.Errorf("unsupported MCP method %q", method)
	}
	id := catalog.ID(catalog.SourceMCP, server, method)
	op := t.ByID[id]
	if _, ok := t.MCPOps[id]; !ok || op == nil || op.Execute == nil {
		return nil, id, tool.Messagef("MCP operation %s is not allowed in this run.", id)
	}
	return op, id, nil
}
