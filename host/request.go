package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/swarm"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

// request is one bridge request, decoded once when the guest makes it and
// resolved against the run's table: the pending bound, the restart-safe
// check, the nested call's id and the worker all use it as it is.
type request struct {
	op bridge.Op
	// name is the tool name in the nested call's id: the resolved tool's
	// name, an MCP operation's method, or the op's wire name for everything
	// else.
	name string
	// refused, when set, is the answer: a request that resolves to nothing
	// (an unknown id, a bad argument) is refused at once, before any worker.
	refused    string
	replaySafe bool

	// a call
	tool      *tool.Tool
	id        string
	entry     catalog.Entry // the catalog entry of a tools.call
	input     json.RawMessage
	valueOnly bool

	// a read
	query, limit json.RawMessage
	server       *string
	selector     string // of $api
	schema       bool
	path         string // of API.list and API.read

	raw []byte // store, load and namespace decode their own payload

	agent *swarm.Call // of agents.run (swarm.go)
}

// maxName bounds the ids and names a request resolves on the cell's
// goroutine: an unknown one is compared with every catalog entry.
const maxName = 1 << 10

// count adds a request of op to the run's telemetry.
func (run *Run) count(op bridge.Op) {
	switch op.Counter() {
	case bridge.Searches:
		run.searches.Add(1)
	case bridge.Describes:
		run.describes.Add(1)
	case bridge.Calls:
		run.calls.Add(1)
	}
}

// newRequest decodes and resolves one request of a nested-call op (name is
// its wire name, for an op the table does not know).
func (run *Run) newRequest(op bridge.Op, name, payload string) *request {
	req := &request{op: op, name: name, replaySafe: op.ReplaySafe()}
	if op.Payload() == bridge.Opaque {
		req.raw = []byte(payload)
		run.count(op)
		return req
	}
	a, err := bridge.Decode(payload)
	if err != nil {
		req.refused = "invalid bridge request"
		return req
	}
	if a.ID.Len > maxName || len(a.Name.Value) > maxName {
		req.refused = fmt.Sprintf("tool ids and names are at most %d bytes.", maxName)
		return req
	}
	run.count(op)
	switch op {
	case bridge.Search, bridge.MCPSearch:
		req.query, req.limit = json.RawMessage(a.Query), json.RawMessage(a.Options.Limit)
	case bridge.Describe:
		if req.id = a.ID.Value; !a.ID.String {
			err = tool.Message("id must be a string.")
		}
	case bridge.MCPAPI:
		if a.Server.Set {
			req.server = &a.Server.Value
		}
		req.selector, req.schema = a.Selector, a.Schema
	case bridge.APIList, bridge.APIRead:
		req.path = a.Path
	case bridge.Call, bridge.CallValue:
		req.valueOnly = op == bridge.CallValue
		err = run.resolveCall(req, a.ID, json.RawMessage(a.Input))
	case bridge.MCP:
		err = run.resolveMCP(req, &a)
	case bridge.MCPRequest:
		err = run.resolveOperation(req, &a)
	default:
		err = errors.New("unknown code mode bridge operation: " + name)
	}
	if err != nil {
		req.refused = err.Error()
	}
	return req
}

// resolveCall resolves tools.call and tools.callValue: an id or unique name
// among the guest-visible entries.
func (run *Run) resolveCall(req *request, rawID bridge.ID, input json.RawMessage) error {
	if !rawID.String {
		return tool.Message("id must be a string.")
	}
	id := rawID.Value
	e, err := run.resolve(id)
	if errors.Is(err, catalog.ErrUnknownTool) {
		if err := run.withheld(id); err != nil {
			return err
		}
	}
	if errors.Is(err, catalog.ErrUnknownTool) && !run.searching {
		for sid, tools := range run.tab.MCPNames {
			if t, ok := tools[id]; ok {
				return tool.Messagef("Unknown tool id: %s. It is an MCP tool: call MCP.%s[%s](input).", echoName(id), sid, bridge.Quote(t.Name))
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
		return run.tab.Catalog.ResolveEvery(id, catalog.ToolsHelp)
	}
	return run.tab.Catalog.Resolve(id)
}

func (run *Run) executable(req *request) error {
	if req.tool = run.tab.ByID[req.id]; req.tool == nil || req.tool.Execute == nil {
		return tool.Messagef("Tool %q cannot be called from code mode.", req.id)
	}
	return nil
}

func echoName(s string) string { return bridge.Truncate(s, 200) }

// resolveMCP resolves MCP.<server>.<tool>(input), by exact id, or by server
// identifier and the tool's identifier or exact name (a name the cell's
// setup did not carry). Schema defaults are applied and missing required
// keys refused before the call. The guest's input is passed on as it is,
// with the defaults it lacks put in front: it is neither decoded nor encoded
// again.
func (run *Run) resolveMCP(req *request, a *bridge.Args) error {
	var mt catalog.MCPTool
	var ok bool
	if a.Server.Set && a.Name.Set {
		if mt, ok = run.tab.MCPNames[a.Server.Value][a.Name.Value]; !ok {
			return run.mcpMissing(a.Server.Value, a.Name.Value)
		}
	} else {
		if !a.ID.String {
			return tool.Message("id must be a string.")
		}
		if mt, ok = run.tab.MCPTools[a.ID.Value]; !ok {
			if err := run.withheld(a.ID.Value); err != nil {
				return err
			}
			return tool.Messagef("Unknown MCP tool id: %s", a.ID.Value)
		}
	}
	input, err := mcpInput(mt, orEmpty(json.RawMessage(a.Input)))
	if err != nil {
		return err
	}
	req.input, req.id, req.name = input, mt.ID, mt.Name
	return run.executable(req)
}

// mcpInput is an MCP tool's input with the schema defaults it lacks, or the
// refusal of one that is no object or lacks a required key.
func mcpInput(mt catalog.MCPTool, input json.RawMessage) (json.RawMessage, error) {
	var keys []string
	if !bridge.Keys(input, func(k string) { keys = append(keys, k) }) {
		return nil, tool.Message("MCP namespace tools accept one object argument.")
	}
	var missing []string
	for _, k := range mt.Required {
		if !slices.Contains(keys, k) && !slices.ContainsFunc(mt.Defaults, func(d catalog.MCPDefault) bool { return d.Key == k }) {
			missing = append(missing, k)
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		return nil, tool.Messagef("Missing required MCP namespace argument: %s", missing[0])
	default:
		return nil, tool.Messagef("Missing required MCP namespace arguments: %s", strings.Join(missing, ", "))
	}
	var head []byte
	for _, d := range mt.Defaults {
		if !slices.Contains(keys, d.Key) {
			k, _ := json.Marshal(d.Key)
			head = append(append(append(head, k...), ':'), d.Value...)
			head = append(head, ',')
		}
	}
	if head == nil {
		return input, nil
	}
	body := bytes.TrimSpace(input[bytes.IndexByte(input, '{')+1:])
	if len(keys) == 0 {
		head, body = head[:len(head)-1], body[len(body)-1:] // no member follows: no comma, only the }
	}
	return append(append([]byte{'{'}, head...), body...), nil
}

// mcpMissing is the refusal of a name a large catalog's guest did not have
// and the host does not know either: the closest tools of that server, by the
// MCP search ranking.
func (run *Run) mcpMissing(server, name string) error {
	serverName, ok := run.tab.MCPServers[server]
	if !ok {
		return tool.Messagef("MCP has no server %s. MCP.$api() lists them.", bridge.Quote(server))
	}
	if err := run.withheld(catalog.ID(catalog.SourceMCP, serverName, name)); err != nil {
		return err
	}
	msg := fmt.Sprintf("MCP.%s has no tool %s.", server, bridge.Quote(bridge.Truncate(name, 80)))
	hits, _ := run.tab.Catalog.MCPSearch(name, catalog.MaxSearchLimit)
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

// withheld is why a source holds back the tool of an exact id (a changed
// MCP tool awaiting approval), so that the cell is told that rather than
// that no such tool exists.
func (run *Run) withheld(id string) error {
	for _, src := range run.rt.sources {
		if w, ok := src.(tool.Withholder); ok {
			if err := w.Quarantined(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveOperation resolves MCP.<server>.resources.list/read and
// prompts.list/get: an operation the policy refused fails here, before any
// hook or the server sees it.
func (run *Run) resolveOperation(req *request, a *bridge.Args) error {
	server := a.Server.Value
	name, ok := run.tab.MCPServers[server]
	if !ok && table.IsMCPMethod(a.Method) {
		return tool.Messagef("Unknown MCP server: %s", server)
	}
	tool, id, err := run.tab.Operation(name, a.Method)
	if err != nil {
		return err
	}
	req.tool, req.id, req.name, req.input = tool, id, a.Method, orEmpty(json.RawMessage(a.Params))
	return nil
}

// orEmpty is an input the guest or client left out (absent or null) as {}.
func orEmpty(input json.RawMessage) json.RawMessage {
	if len(input) == 0 || string(input) == "null" {
		return json.RawMessage("{}")
	}
	return input
}

// answer runs a resolved request, on a worker or, for a read, inside
// Request. Every failure is a plain message: no host error object reaches
// the guest.
func (run *Run) answer(ctx context.Context, st *state, pc *pendingCall) (out abi.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = abi.Reject(fmt.Sprintf("tool call failed: %v", r))
		}
	}()
	req := pc.req
	switch req.op {
	case bridge.Store:
		return bridge.Outcome(run.store(ctx, req.raw))
	case bridge.Load:
		return bridge.Outcome(run.load(ctx, req.raw))
	case bridge.Namespace:
		return bridge.Outcome(run.callNamespace(ctx, st, pc, req.raw))
	case bridge.Search:
		return bridge.Outcome(run.search(req.query, req.limit))
	case bridge.MCPSearch:
		return bridge.Outcome(run.mcpSearch(req.query, req.limit))
	case bridge.Describe:
		e, err := run.resolve(req.id)
		if err != nil {
			return bridge.Outcome(nil, err)
		}
		return bridge.Outcome(e.Described(), nil)
	case bridge.MCPAPI:
		if req.server == nil {
			return bridge.Outcome(run.tab.Catalog.MCPRootAPI(), nil)
		}
		return bridge.Outcome(run.tab.Catalog.MCPServerAPI(*req.server, req.selector, req.schema))
	case bridge.APIList:
		return bridge.Outcome(run.tab.Catalog.APIFiles().List(req.path))
	case bridge.APIRead:
		return run.tab.APIFile(req.path)
	case bridge.Agent:
		return run.runAgent(ctx, st, pc)
	}
	res, err := run.callNested(ctx, st, pc, req.tool, req.id, req.input)
	switch {
	case err != nil:
		return abi.Reject(err.Error())
	case req.op == bridge.MCPRequest:
		return bridge.Outcome(res.Details, nil)
	case req.op == bridge.MCP:
		if res.Details != nil {
			return bridge.Outcome(res.Details, nil)
		}
		return bridge.Outcome(map[string]any{"content": res.Content}, nil)
	case req.valueOnly && res.Details != nil:
		return bridge.Outcome(res.Details, nil)
	case req.valueOnly:
		return bridge.Outcome(res, nil)
	}
	return bridge.Outcome(struct {
		Tool   catalog.Compact `json:"tool"`
		Result tool.Result     `json:"result"`
	}{req.entry.Compact(), res}, nil)
}
