package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

// request is one bridge request, decoded once when the guest makes it and
// resolved against the run's table: the pending bound, the restart-safe
// check, the nested call's id and the worker all use it as it is.
type request struct {
	op string
	// name is the tool name in the nested call's id: the resolved tool's
	// name, an MCP operation's method, or the op for everything else.
	name string
	// refused, when set, is the answer: a request that resolves to nothing
	// (an unknown id, a bad argument) is refused at once, before any worker.
	refused string
	// read marks a catalog read (search, describe, $api, API files),
	// answered from the run's immutable table: replay-safe.
	read       bool
	replaySafe bool

	// a call
	tool      *tool.Tool
	id        string
	entry     catalog.Entry // the catalog entry of a tools.call
	input     json.RawMessage
	valueOnly bool
	mcp       bool // MCP.<server>.<tool>: the MCP result is the value

	// a read
	query, limit json.RawMessage
	server       *string
	selector     string // of $api
	schema       bool
	path         string // of API.list and API.read

	raw []byte // store, load and namespace decode their own payload

	agent *agentCall // of agents.run (swarm.go)
}

// bridgeArgs are the members of the guest prelude's payloads.
type bridgeArgs struct {
	Query   json.RawMessage `json:"query"`
	Options struct {
		Limit json.RawMessage `json:"limit"`
	} `json:"options"`
	ID       json.RawMessage `json:"id"`
	Input    json.RawMessage `json:"input"`
	Server   *string         `json:"server"`
	Name     *string         `json:"name"`
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params"`
	Selector string          `json:"selector"`
	Schema   bool            `json:"schema"`
	Path     string          `json:"path"`
}

// maxName bounds the ids and names a request resolves on the cell's
// goroutine: an unknown one is compared with every catalog entry.
const maxName = 1 << 10

// newRequest decodes and resolves one request of a nested-call op.
func (run *Run) newRequest(op, payload string) *request {
	req := &request{op: op, name: op}
	switch op {
	case "store", "load", "namespace":
		req.raw, req.replaySafe = []byte(payload), op == "load"
		if op == "namespace" {
			run.calls.Add(1)
		}
		return req
	}
	var a bridgeArgs
	if json.Unmarshal([]byte(payload), &a) != nil {
		req.refused = "invalid bridge request"
		return req
	}
	if len(a.ID) > maxName || a.Name != nil && len(*a.Name) > maxName {
		req.refused = fmt.Sprintf("tool ids and names are at most %d bytes.", maxName)
		return req
	}
	var err error
	switch op {
	case "search", "mcp_search":
		run.searches.Add(1)
		req.read, req.query, req.limit = true, a.Query, a.Options.Limit
	case "describe":
		run.describes.Add(1)
		req.read = true
		if json.Unmarshal(a.ID, &req.id) != nil {
			err = errors.New("id must be a string.")
		}
	case "mcp_api":
		req.read, req.server, req.selector, req.schema = true, a.Server, a.Selector, a.Schema
	case "api_list", "api_read":
		req.read, req.path = true, a.Path
	case "call", "callValue":
		run.calls.Add(1)
		req.valueOnly = op == "callValue"
		err = run.resolveCall(req, a.ID, a.Input)
	case "mcp":
		run.calls.Add(1)
		req.mcp = true
		err = run.resolveMCP(req, a)
	case "mcp_request":
		run.calls.Add(1)
		err = run.resolveOperation(req, a)
	default:
		err = errors.New("unknown code mode bridge operation: " + op)
	}
	if err != nil {
		req.refused = err.Error()
	}
	req.replaySafe = req.replaySafe || req.read
	return req
}

// resolveCall resolves tools.call and tools.callValue: an id or unique name
// among the guest-visible entries.
func (run *Run) resolveCall(req *request, rawID, input json.RawMessage) error {
	var id string
	if json.Unmarshal(rawID, &id) != nil {
		return errors.New("id must be a string.")
	}
	e, err := run.resolve(id)
	if errors.Is(err, catalog.ErrUnknownTool) && !run.searching {
		for sid, tools := range run.mcpNames {
			if t, ok := tools[id]; ok {
				return fmt.Errorf("Unknown tool id: %s. It is an MCP tool: call MCP.%s[%s](input).", echoName(id), sid, jsString(t.Name))
			}
		}
	}
	if err != nil {
		return err
	}
	req.entry, req.id, req.name, req.input, req.replaySafe = e, e.ID, e.Name, orEmpty(input), e.ReplaySafe
	return run.executable(req)
}

// resolve finds the catalog entry of an id or unique name for the guest's
// tools object: among the guest-visible entries, or in a Tool Search cell
// among every entry, MCP tools included.
func (run *Run) resolve(id string) (catalog.Entry, error) {
	if run.searching {
		return run.catalog.ResolveEvery(id, catalog.ToolsHelp)
	}
	return run.catalog.Resolve(id)
}

func (run *Run) executable(req *request) error {
	if req.tool = run.byID[req.id]; req.tool == nil || req.tool.Execute == nil {
		return fmt.Errorf("Tool %q cannot be called from code mode.", req.id)
	}
	return nil
}

func echoName(s string) string { return truncateUTF8(s, 200) }

// resolveMCP resolves MCP.<server>.<tool>(input), by exact id, or by server
// identifier and the tool's identifier or exact name (a name the cell's
// setup did not carry). Schema defaults are applied and missing required
// keys refused before the call.
func (run *Run) resolveMCP(req *request, a bridgeArgs) error {
	var tool catalog.MCPTool
	var ok bool
	if a.Server != nil && a.Name != nil {
		if tool, ok = run.mcpNames[*a.Server][*a.Name]; !ok {
			return run.mcpMissing(*a.Server, *a.Name)
		}
	} else {
		var id string
		if json.Unmarshal(a.ID, &id) != nil {
			return errors.New("id must be a string.")
		}
		if tool, ok = run.mcpTools[id]; !ok {
			return fmt.Errorf("Unknown MCP tool id: %s", id)
		}
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(orEmpty(a.Input), &args) != nil || args == nil {
		return errors.New("MCP namespace tools accept one object argument.")
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
		return fmt.Errorf("Missing required MCP namespace argument: %s", missing[0])
	default:
		return fmt.Errorf("Missing required MCP namespace arguments: %s", strings.Join(missing, ", "))
	}
	req.input, _ = json.Marshal(args)
	req.id, req.name = tool.ID, tool.Name
	return run.executable(req)
}

// mcpMissing is the refusal of a name a large catalog's guest did not have
// and the host does not know either: the closest tools of that server, by the
// MCP search ranking.
func (run *Run) mcpMissing(server, name string) error {
	if _, ok := run.mcpServers[server]; !ok {
		return fmt.Errorf("MCP has no server %s. MCP.$api() lists them.", jsString(server))
	}
	msg := fmt.Sprintf("MCP.%s has no tool %s.", server, jsString(truncateUTF8(name, 80)))
	hits, _ := run.catalog.MCPSearch(name, catalog.MaxSearchLimit)
	var near []string
	for _, h := range hits {
		if strings.HasPrefix(h.Path, "MCP."+server+".") || strings.HasPrefix(h.Path, "MCP."+server+"[") {
			near = append(near, strings.TrimPrefix(h.Path, "MCP."+server))
		}
		if len(near) == 3 {
			break
		}
	}
	if len(near) > 0 {
		msg += " Closest: " + strings.Join(near, ", ") + "."
	}
	return errors.New(msg + " MCP.$search(query) finds MCP tools.")
}

// resolveOperation resolves MCP.<server>.resources.list/read and
// prompts.list/get: an operation the policy refused fails here, before any
// hook or the server sees it.
func (run *Run) resolveOperation(req *request, a bridgeArgs) error {
	var server string
	if a.Server != nil {
		server = *a.Server
	}
	name, ok := run.mcpServers[server]
	if !ok && isMCPMethod(a.Method) {
		return fmt.Errorf("Unknown MCP server: %s", server)
	}
	tool, id, err := run.operation(name, a.Method)
	if err != nil {
		return err
	}
	req.tool, req.id, req.name, req.input = tool, id, a.Method, orEmpty(a.Params)
	return nil
}

// operation is the executor and id of a server's resource or prompt
// operation, when the policy keeps it.
func (run *Run) operation(server, method string) (*tool.Tool, string, error) {
	if !isMCPMethod(method) {
		return nil, "", fmt.Errorf("unsupported MCP method %q", method)
	}
	id := catalog.ID(catalog.SourceMCP, server, method)
	tool := run.byID[id]
	if _, ok := run.mcpOps[id]; !ok || tool == nil || tool.Execute == nil {
		return nil, id, fmt.Errorf("MCP operation %s is not allowed in this run.", id)
	}
	return tool, id, nil
}

// orEmpty is an input the guest or client left out (absent or null) as {}.
func orEmpty(input json.RawMessage) json.RawMessage {
	if len(input) == 0 || string(input) == "null" {
		return json.RawMessage("{}")
	}
	return input
}

// apiRead answers API.read, encoding each file once per table: a cell that
// reads a large declaration many times holds one copy of it.
func (run *Run) apiRead(path string) abi.Outcome {
	run.apiMu.Lock()
	defer run.apiMu.Unlock()
	if out, ok := run.api[path]; ok {
		return out
	}
	out := settle(run.catalog.APIFiles().Read(path))
	if !out.Rejected {
		if run.api == nil {
			run.api = map[string]abi.Outcome{}
		}
		run.api[path] = out
	}
	return out
}

// perform runs a resolved request, on a worker or, for a read, inside
// Request. Every failure is a plain message: no host error object reaches
// the guest.
func (run *Run) perform(ctx context.Context, st *state, pc *pendingCall) (out abi.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = abi.Reject(fmt.Sprintf("tool call failed: %v", r))
		}
	}()
	req := pc.req
	switch req.op {
	case "store":
		return settle(run.store(ctx, req.raw))
	case "load":
		return settle(run.load(ctx, req.raw))
	case "namespace":
		return settle(run.invokeNamespace(ctx, st, pc, req.raw))
	case "search":
		return settle(run.search(req.query, req.limit))
	case "mcp_search":
		return settle(run.mcpSearch(req.query, req.limit))
	case "describe":
		e, err := run.resolve(req.id)
		if err != nil {
			return settle(nil, err)
		}
		return settle(e.Described(), nil)
	case "mcp_api":
		if req.server == nil {
			return settle(run.catalog.MCPRootAPI(), nil)
		}
		return settle(run.catalog.MCPServerAPI(*req.server, req.selector, req.schema))
	case "api_list":
		return settle(run.catalog.APIFiles().List(req.path))
	case "api_read":
		return run.apiRead(req.path)
	case opAgent:
		return run.runAgent(ctx, st, pc)
	}
	res, err := run.execute(ctx, st, pc, req.tool, req.id, req.input)
	switch {
	case err != nil:
		return abi.Reject(err.Error())
	case req.op == "mcp_request":
		return settle(res.Details, nil)
	case req.mcp:
		if res.Details != nil {
			return settle(res.Details, nil)
		}
		return settle(map[string]any{"content": res.Content}, nil)
	case req.valueOnly && res.Details != nil:
		return settle(res.Details, nil)
	case req.valueOnly:
		return settle(res, nil)
	}
	return settle(struct {
		Tool   catalog.Compact `json:"tool"`
		Result tool.Result     `json:"result"`
	}{req.entry.Compact(), res}, nil)
}
