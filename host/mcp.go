package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/catalog"
)

// Source supplies tools to every prepared run, for example the tools of
// downstream MCP servers. Tools is called by each [Runtime.Prepare], so a
// source whose tools change (an MCP tools/list_changed) serves new runs the
// new list.
type Source interface {
	Tools() []Tool
}

// MCPSource is a [Source] of MCP server tools (tools with MCPServer set) that
// also serves those servers' resources and prompts.
type MCPSource interface {
	Source
	// MCPRequest runs method ("resources/list", "resources/read",
	// "prompts/list" or "prompts/get") with JSON params on the named server.
	// It returns ErrUnknownServer for a server it does not own.
	MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error)
}

// ErrUnknownServer is returned by an [MCPSource] for a server it does not own.
var ErrUnknownServer = errors.New("unknown MCP server")

// MCPOperationPolicy is an optional interface of an [MCPSource] that decides
// which resource and prompt operations of its servers a run may call, for
// example one that applies a configured tool policy.
//
// Each run offers it the operations of the source's servers that have tools
// in the run and that [RunOptions] Allow and Deny keep, each as a Tool whose
// Name is the MCP method and whose MCPServer is the server (catalog id
// mcp:<server>:<method>). An operation missing from the result is refused;
// RequireApproval on a returned one sends its calls through [Hooks.Approve].
// The other fields of the returned tools, and tools that were not offered,
// are ignored. A source without this method serves every offered operation.
type MCPOperationPolicy interface {
	MCPOperations(offered []Tool) []Tool
}

// mcpMethods are the MCP requests a cell makes through MCP.<server>.resources
// and MCP.<server>.prompts. Each, on each server, is an operation with the
// catalog id mcp:<server>:<method> that runs through execute like a tool:
// RunOptions Allow and Deny name it by its method (on every server), a
// source's MCPOperationPolicy may judge it by id, and hooks see it as a
// nested call with ToolEvent.MCPMethod set. The ids cannot be a tool's: an
// MCP tool named like one of these is dropped (see effective). MCP's
// tool-name rule (letters, digits, "_", "-" and ".") already leaves "/" out,
// but clients need not enforce it, and ours does not.
var mcpMethods = []string{"resources/list", "resources/read", "prompts/list", "prompts/get"}

func isMCPMethod(name string) bool { return slices.Contains(mcpMethods, name) }

// mcpSetup is the guest data for the MCP object: per server, its identifier,
// its exact name when that is a property too and differs, and its tools as
// [identifier, exact id] or [identifier, exact id, exact name] when the exact
// name is a property too and differs.
type mcpSetup struct {
	Identifier string     `json:"identifier"`
	Name       string     `json:"name,omitempty"`
	Tools      [][]string `json:"tools"`
}

func (run *Run) mcpSetup() []mcpSetup {
	out := []mcpSetup{}
	for _, s := range run.catalog.MCPServers() {
		ms := mcpSetup{Identifier: s.Identifier, Tools: [][]string{}}
		if s.Aliased && s.Name != s.Identifier {
			ms.Name = s.Name
		}
		for _, t := range s.Tools {
			tool := []string{t.Identifier, t.ID}
			if t.Aliased && t.Name != t.Identifier {
				tool = append(tool, t.Name)
			}
			ms.Tools = append(ms.Tools, tool)
		}
		out = append(out, ms)
	}
	return out
}

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

// mcpCall runs MCP.<server>.<tool>(input): schema defaults are applied and
// missing required keys refused before the call; the tool's MCP result
// ({content, structuredContent?, isError?}) is the value, isError included.
func (run *Run) mcpCall(ctx context.Context, st *state, pc *pendingCall, rawID, input json.RawMessage) (any, error) {
	var id string
	if json.Unmarshal(rawID, &id) != nil {
		return nil, errors.New("id must be a string.")
	}
	tool, ok := run.mcpTools[id]
	if !ok {
		return nil, fmt.Errorf("Unknown MCP tool id: %s", id)
	}
	var args map[string]json.RawMessage
	if len(input) == 0 || string(input) == "null" {
		args = map[string]json.RawMessage{}
	} else if json.Unmarshal(input, &args) != nil || args == nil {
		return nil, errors.New("MCP namespace tools accept one object argument.")
	}
	for _, d := range tool.Defaults {
		if _, ok := args[d.Key]; !ok {
			args[d.Key] = d.Value
		}
	}
	var missing []string
	for _, k := range tool.Required {
		if _, ok := args[k]; !ok {
			missing = append(missing, k)
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		return nil, fmt.Errorf("Missing required MCP namespace argument: %s", missing[0])
	default:
		return nil, fmt.Errorf("Missing required MCP namespace arguments: %s", strings.Join(missing, ", "))
	}
	b, _ := json.Marshal(args)
	res, err := run.execute(ctx, st, pc, id, b)
	if err != nil {
		return nil, err
	}
	if res.Details != nil {
		return res.Details, nil
	}
	return map[string]any{"content": res.Content}, nil
}

// mcpAPI serves MCP.$api() and MCP.<server>.$api(selector, {schema}).
func (run *Run) mcpAPI(payload []byte) (any, error) {
	var a struct {
		Server   *string `json:"server"`
		Selector string  `json:"selector"`
		Schema   bool    `json:"schema"`
	}
	if json.Unmarshal(payload, &a) != nil {
		return nil, errors.New("invalid $api arguments")
	}
	if a.Server == nil {
		return run.catalog.MCPRootAPI(), nil
	}
	return run.catalog.MCPServerAPI(*a.Server, a.Selector, a.Schema)
}

// mcpRequest serves MCP.<server>.resources.list/read and prompts.list/get:
// the operation's nested call goes through execute, so an operation the
// run's policy refused fails here, before any hook or the server sees it.
func (run *Run) mcpRequest(ctx context.Context, st *state, pc *pendingCall, payload []byte) (any, error) {
	var a struct {
		Server string          `json:"server"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(payload, &a) != nil {
		return nil, errors.New("invalid MCP request")
	}
	if !isMCPMethod(a.Method) {
		return nil, fmt.Errorf("unsupported MCP method %q", a.Method)
	}
	if len(a.Params) == 0 || string(a.Params) == "null" {
		a.Params = json.RawMessage("{}")
	}
	name, ok := run.mcpServers[a.Server]
	if !ok {
		return nil, fmt.Errorf("Unknown MCP server: %s", a.Server)
	}
	id := catalog.ID(catalog.SourceMCP, name, a.Method)
	if _, ok := run.mcpOps[id]; !ok {
		return nil, fmt.Errorf("MCP operation %s is not allowed in this run.", id)
	}
	res, err := run.execute(ctx, st, pc, id, a.Params)
	if err != nil {
		return nil, err
	}
	return res.Details, nil
}

// indexMCP maps the run's MCP tool ids to their namespace metadata and its
// MCP server identifiers to their names.
func (run *Run) indexMCP() {
	run.mcpTools = map[string]catalog.MCPTool{}
	run.mcpServers = map[string]string{}
	for _, s := range run.catalog.MCPServers() {
		run.mcpServers[s.Identifier] = s.Name
		for _, t := range s.Tools {
			run.mcpTools[t.ID] = t
		}
	}
}

// indexMCPOperations adds to byID the resource and prompt operations the run
// may call: on each catalogued server served by an MCPSource (owners, by
// server name), those that RunOptions Allow and Deny keep and then the
// source's MCPOperationPolicy, if it has one.
func (run *Run) indexMCPOperations(owners map[string]MCPSource) {
	run.mcpOps = map[string]string{}
	for _, s := range run.catalog.MCPServers() {
		src := owners[s.Name]
		if src == nil {
			continue
		}
		var offered []Tool
		for _, m := range mcpMethods {
			if permitted(run.opts, m) {
				offered = append(offered, Tool{Name: m, MCPServer: s.Name})
			}
		}
		kept := offered
		if p, ok := src.(MCPOperationPolicy); ok && len(offered) > 0 {
			kept = p.MCPOperations(slices.Clone(offered))
		}
		for _, k := range kept {
			if k.MCPServer != s.Name || !slices.ContainsFunc(offered, func(o Tool) bool { return o.Name == k.Name }) {
				continue
			}
			id := catalog.ID(catalog.SourceMCP, s.Name, k.Name)
			if _, dup := run.mcpOps[id]; dup {
				continue
			}
			run.mcpOps[id] = k.Name
			run.byID[id] = mcpOperation(src, s.Name, k.Name, k.RequireApproval)
		}
	}
}

// mcpOperation is the executable tool of one operation: its result is the
// MCP result as details, like an MCP tool's.
func mcpOperation(src MCPSource, server, method string, approval bool) *Tool {
	return &Tool{Name: method, MCPServer: server, RequireApproval: approval,
		Execute: func(ctx context.Context, c Call) (ToolResult, error) {
			v, err := src.MCPRequest(ctx, server, method, c.Input)
			if errors.Is(err, ErrUnknownServer) {
				err = fmt.Errorf("MCP server %s does not serve %s", server, method)
			}
			return ToolResult{Details: v}, err
		}}
}
