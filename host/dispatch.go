package host

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

// searchArgs reads a search's query and limit (0 for the default), as
// tools.search and MCP.$search both take them.
func searchArgs(query, limit json.RawMessage) (string, int, error) {
	var q string
	if json.Unmarshal(query, &q) != nil {
		return "", 0, tool.Message("query must be a string.")
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
	search := run.tab.Catalog.Search
	if run.searching {
		search = run.tab.Catalog.SearchEvery
	}
	res, err := search(q, n)
	if res == nil && err == nil {
		res = []catalog.Compact{}
	}
	return res, err
}

// callNested is a cell's nested call: its event for the hooks, then
// [table.Table.Call] (hooks, approval, the output contract, the tool), then
// the trajectory record.
func (run *Run) callNested(ctx context.Context, st *state, pc *pendingCall, def *tool.Tool, id string, input json.RawMessage) (res tool.Result, err error) {
	if def == nil || def.Execute == nil {
		return tool.Result{}, tool.Messagef("Tool %q cannot be called from code mode.", id)
	}
	ev := tool.Event{ToolKind: tool.KindNested, ToolName: def.Name, ToolID: id, MCPMethod: run.tab.MCPOps[id],
		CallID: pc.id, ParentCallID: st.parent, Input: input, Scope: run.opts.Scope}
	start := time.Now()
	defer func() { record(st.trajectory(), ev, pc.method, start, err) }() // ev as the hooks left it
	return run.tab.Call(ctx, def, &ev)
}

// record hands a finished nested call to a trajectory, if there is one. ev
// is the call as the hooks saw it (with a rewritten input).
func record(trajectory func(NestedCall), ev tool.Event, method string, start time.Time, err error) {
	if trajectory == nil {
		return
	}
	nc := NestedCall{ID: ev.CallID, ParentCallID: ev.ParentCallID, ToolID: ev.ToolID, Method: method,
		Input: ev.Input, Start: start, Duration: time.Since(start)}
	if err != nil {
		nc.Error = err.Error()
	}
	trajectory(nc)
}

// CallDirect runs a model-visible tool other than exec, wait and
// tool_search_code: a direct-only tool, Tool Search's tool_search,
// tool_describe and tool_call, or any effective tool when neither compact
// surface is active. Hooks and approval apply as for nested calls.
func (run *Run) CallDirect(ctx context.Context, callID, name string, args json.RawMessage) (tool.Result, error) {
	if run.searching && table.IsToolSearchControl(name) && name != "tool_search_code" && run.shows(name) {
		return run.callControl(ctx, callID, name, args)
	}
	def := run.tab.Direct[name]
	if !run.active && !run.searching {
		def = run.tab.All[name]
	}
	if def == nil || def.Execute == nil {
		return tool.Result{}, fmt.Errorf("tool %q is not a model-visible tool of this run", name)
	}
	ev := tool.Event{ToolKind: tool.KindDirect, ToolName: name, CallID: callID, Input: args, Scope: run.opts.Scope}
	return run.tab.Call(ctx, def, &ev)
}
