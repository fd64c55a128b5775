package host

import (
	"context"
	"encoding/json"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

// mcpSearch serves MCP.$search(query, { limit }), with tools.search's
// argument rules.
func (run *Run) mcpSearch(query, limit json.RawMessage) (any, error) {
	q, n, err := searchArgs(query, limit)
	if err != nil {
		return nil, err
	}
	res, err := run.tab.Catalog.MCPSearch(q, n)
	if res == nil && err == nil {
		res = []catalog.MCPHit{}
	}
	return res, err
}

// MCPServers names the run's MCP servers that serve resources and prompts,
// in catalog order.
func (run *Run) MCPServers() []string {
	if run.tab.Catalog == nil {
		return nil
	}
	var out []string
	for _, s := range run.tab.Catalog.MCPServers() {
		if run.tab.Owners[s.Name] != nil {
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
	def, id, err := run.tab.Operation(server, method)
	if err != nil {
		return nil, err
	}
	ev := tool.Event{ToolKind: tool.KindDirect, ToolName: method, ToolID: id, MCPMethod: method, CallID: callID, Input: orEmpty(params), Scope: run.opts.Scope}
	res, err := run.tab.Call(ctx, def, &ev)
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
