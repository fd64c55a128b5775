package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
)

// dispatch runs one bridge request off the VM's goroutine and returns the
// outcome to settle its ticket with. Every failure is a plain message: no
// host error object reaches the guest.
func (run *Run) dispatch(ctx context.Context, st *state, pc *pendingCall, op, payload string) (out abi.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = abi.Reject(fmt.Sprintf("tool call failed: %v", r))
		}
	}()
	switch op { // requests that decode their own payload
	case "store":
		return settle(run.store(ctx, []byte(payload)))
	case "load":
		return settle(run.load(ctx, []byte(payload)))
	}
	var args struct {
		Query   json.RawMessage `json:"query"`
		Options struct {
			Limit json.RawMessage `json:"limit"`
		} `json:"options"`
		ID    json.RawMessage `json:"id"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal([]byte(payload), &args); err != nil {
		return abi.Reject("invalid bridge request")
	}
	var v any
	var err error
	switch op {
	case "search":
		run.searches.Add(1)
		v, err = run.search(args.Query, args.Options.Limit)
	case "describe":
		run.describes.Add(1)
		var id string
		if json.Unmarshal(args.ID, &id) != nil {
			return abi.Reject("id must be a string.")
		}
		v, err = run.catalog.Describe(id)
	case "call", "callValue":
		run.calls.Add(1)
		v, err = run.call(ctx, st, pc, args.ID, args.Input, op == "callValue")
	case "mcp":
		run.calls.Add(1)
		v, err = run.mcpCall(ctx, st, pc, args.ID, args.Input)
	case "namespace":
		run.calls.Add(1)
		v, err = run.invokeNamespace(ctx, st, pc, []byte(payload))
	case "mcp_search":
		run.searches.Add(1)
		v, err = run.mcpSearch(args.Query, args.Options.Limit)
	case "mcp_api":
		v, err = run.mcpAPI([]byte(payload))
	case "mcp_request":
		run.calls.Add(1)
		v, err = run.mcpRequest(ctx, st, pc, []byte(payload))
	default:
		return abi.Reject("unknown code mode bridge operation: " + op)
	}
	return settle(v, err)
}

// settle is the outcome of a request's answer.
func settle(v any, err error) abi.Outcome {
	if err != nil {
		return abi.Reject(err.Error())
	}
	b, err := json.Marshal(v)
	if err != nil {
		return abi.Reject("tool result is not JSON-compatible: " + err.Error())
	}
	return abi.Resolve(string(b))
}

// searchArgs reads a search's query and limit (0 for the default), as
// tools.search and MCP.$search both take them.
func searchArgs(query, limit json.RawMessage) (string, int, error) {
	var q string
	if json.Unmarshal(query, &q) != nil {
		return "", 0, errors.New("query must be a string.")
	}
	if len(limit) == 0 || string(limit) == "null" {
		return q, 0, nil
	}
	n, err := catalog.ParseLimit(limit)
	return q, n, err
}

func (run *Run) search(query, limit json.RawMessage) (any, error) {
	q, n, err := searchArgs(query, limit)
	if err != nil {
		return nil, err
	}
	res, err := run.catalog.Search(q, n)
	if res == nil && err == nil {
		res = []catalog.Compact{}
	}
	return res, err
}

// call resolves an id or unique name among the guest-visible entries and runs
// the tool through its executor.
func (run *Run) call(ctx context.Context, st *state, pc *pendingCall, rawID, input json.RawMessage, valueOnly bool) (any, error) {
	var id string
	if json.Unmarshal(rawID, &id) != nil {
		return nil, errors.New("id must be a string.")
	}
	entry, err := run.catalog.Resolve(id)
	if err != nil {
		return nil, err
	}
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
	}
	res, err := run.execute(ctx, st, pc, entry.ID, input)
	if err != nil {
		return nil, err
	}
	if valueOnly {
		if res.Details != nil {
			return res.Details, nil
		}
		return res, nil
	}
	return struct {
		Tool   catalog.Compact `json:"tool"`
		Result ToolResult      `json:"result"`
	}{entry.Compact(), res}, nil
}

// execute is the one executor path of every nested call: before-call hooks,
// approval, the output contract's compile check, the tool, after-call hooks,
// the output contract's validation, then the trajectory record.
func (run *Run) execute(ctx context.Context, st *state, pc *pendingCall, id string, input json.RawMessage) (res ToolResult, err error) {
	tool := run.byID[id]
	if tool == nil || tool.Execute == nil {
		return ToolResult{}, fmt.Errorf("Tool %q cannot be called from code mode.", id)
	}
	ev := ToolEvent{ToolKind: ToolKindNested, ToolName: tool.Name, ToolID: id, MCPMethod: run.mcpOps[id],
		CallID: pc.id, ParentCallID: st.parent, Input: input, Scope: run.opts.Scope}
	start := time.Now()
	defer func() {
		if record := run.opts.Trajectory; record != nil {
			nc := NestedCall{ID: pc.id, ParentCallID: st.parent, ToolID: id, Method: pc.method,
				Input: ev.Input, Start: start, Duration: time.Since(start)}
			if err != nil {
				nc.Error = err.Error()
			}
			record(nc)
		}
	}()
	return run.invoke(ctx, tool, &ev)
}

// CallDirect runs a model-visible tool other than exec and wait: a
// direct-only tool, or any effective tool when code mode is off. Hooks and
// approval apply as for nested calls.
func (run *Run) CallDirect(ctx context.Context, callID, name string, args json.RawMessage) (ToolResult, error) {
	tool := run.direct[name]
	if tool == nil || tool.Execute == nil {
		return ToolResult{}, fmt.Errorf("tool %q is not a model-visible tool of this run", name)
	}
	ev := ToolEvent{ToolKind: ToolKindDirect, ToolName: name, CallID: callID, Input: args, Scope: run.opts.Scope}
	return run.invoke(ctx, tool, &ev)
}

// invoke applies hooks, approval and the output contract around one call.
func (run *Run) invoke(ctx context.Context, tool *Tool, ev *ToolEvent) (res ToolResult, err error) {
	hooks, id := run.rt.hooks, ev.ToolID
	if id == "" {
		id = ev.ToolName
	}
	if hooks.BeforeToolCall != nil {
		d := hooks.BeforeToolCall(ctx, *ev)
		if d.Block {
			return ToolResult{}, blocked(id, d.Reason)
		}
		if d.Input != nil {
			ev.Input = d.Input
		}
	}
	if tool.RequireApproval {
		if hooks.Approve == nil {
			return ToolResult{}, blocked(id, "approval required but no approver is configured")
		}
		ok, reason, err := hooks.Approve(ctx, *ev)
		switch {
		case err != nil:
			return ToolResult{}, blocked(id, "approval failed: "+err.Error())
		case !ok:
			if reason == "" {
				reason = "approval denied"
			}
			return ToolResult{}, blocked(id, reason)
		}
	}
	var k *contract
	if tool.MCPServer == "" && !run.clientTool(tool) && len(tool.OutputSchema) > 0 {
		if k = run.rt.outputs.get(id, tool.OutputSchema); k.err != nil {
			return ToolResult{}, fmt.Errorf("Tool %q has an invalid outputSchema.", id)
		}
	}
	res, err = tool.Execute(ctx, Call{ID: ev.CallID, ToolID: ev.ToolID, Input: ev.Input, Scope: run.opts.Scope, ParentCallID: ev.ParentCallID})
	if hooks.AfterToolCall != nil {
		hooks.AfterToolCall(ctx, *ev, res, err)
	}
	if err == nil && k != nil {
		err = checkDetails(k, id, res.Details)
	}
	return res, err
}

// callName is the tool name in a nested call's id: the resolved tool's name
// for calls, the method for an MCP resource or prompt operation the run may
// call, the bridge operation for everything else (search, yield...).
func (run *Run) callName(op, payload string) string {
	var e catalog.Entry
	var err error
	switch op {
	case "call", "callValue":
		e, err = run.catalog.Resolve(leadingID(payload))
	case "mcp":
		var ok bool
		if e, ok = run.catalog.Lookup(leadingID(payload)); !ok {
			return op
		}
	case "mcp_request":
		server, method := leadingMembers(payload, "server", "method")
		if name, ok := run.mcpServers[server]; ok {
			if _, ok := run.mcpOps[catalog.ID(catalog.SourceMCP, name, method)]; ok {
				return method
			}
		}
		return op
	default:
		return op
	}
	if err != nil {
		return op
	}
	return e.Name
}

// leadingID reads the "id" member the guest prelude writes first in a call's
// payload, without decoding the input after it.
func leadingID(payload string) string {
	id, _ := leadingMembers(payload, "id", "")
	return id
}

// leadingMembers reads the string members first and second that the guest
// prelude writes, in that order, at the start of a payload, without decoding
// the rest; an empty second reads only the first. A payload that does not
// start so gives "".
func leadingMembers(payload, first, second string) (string, string) {
	d := json.NewDecoder(strings.NewReader(payload))
	if t, _ := d.Token(); t != json.Delim('{') {
		return "", ""
	}
	var out [2]string
	for i, key := range []string{first, second} {
		if key == "" {
			break
		}
		if t, _ := d.Token(); t != key {
			return "", ""
		}
		t, _ := d.Token()
		s, ok := t.(string)
		if !ok {
			return "", ""
		}
		out[i] = s
	}
	return out[0], out[1]
}
