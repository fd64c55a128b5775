package host

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

// ToolSearchMode is which of Tool Search's controls the model sees.
type ToolSearchMode string

// Tool Search modes.
const (
	ToolSearchAll   ToolSearchMode = "all"   // tool_search_code, tool_search, tool_describe and tool_call
	ToolSearchCode  ToolSearchMode = "code"  // tool_search_code alone
	ToolSearchTools ToolSearchMode = "tools" // tool_search, tool_describe and tool_call, for models that should not write code
)

func (m ToolSearchMode) String() string { return string(m) }

func (m ToolSearchMode) check() error {
	switch m {
	case ToolSearchAll, ToolSearchCode, ToolSearchTools:
		return nil
	}
	return &ConfigError{"tools.toolSearch.mode", fmt.Sprintf("unsupported value %q (one of %q, %q, %q)", m, ToolSearchAll, ToolSearchCode, ToolSearchTools)}
}

// ToolSearchConfig is the resolved tools.toolSearch: Tool Search, the other
// compact surface. The model sees its controls instead of every schema, over
// the same catalog and executor as code mode. A runtime with code mode
// enabled never offers it: where both could be active, code mode wins.
type ToolSearchConfig struct {
	Enabled bool
	// Mode is ToolSearchAll (the default), ToolSearchCode or ToolSearchTools.
	Mode ToolSearchMode
	// Bounds are the limits of its searches and tool_search_code cells,
	// resolved by tools.codeMode's rules and defaults: timeoutMs,
	// memoryLimitBytes, maxOutputBytes, maxPendingToolCalls,
	// searchDefaultLimit, maxSearchLimit and languages. A cell never
	// suspends, so the snapshot bounds do not apply.
	Bounds Config
}

// ResolveToolSearch resolves tools.toolSearch: missing, null, true, false or
// an object. As for tools.codeMode, true means {"enabled":true} and an
// object without enabled: true stays off. Errors are *ConfigError values
// naming the field; warnings report replaced numbers and ignored keys.
func ResolveToolSearch(raw json.RawMessage) (ToolSearchConfig, []string, error) {
	const field = "tools.toolSearch"
	mode := ToolSearchAll
	var warnings []string
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return ToolSearchConfig{}, nil, &ConfigError{field, "invalid JSON: " + err.Error()}
		}
		if v := bytes.TrimSpace(obj["mode"]); len(v) > 0 && string(v) != "null" {
			if json.Unmarshal(v, &mode) != nil {
				return ToolSearchConfig{}, nil, &ConfigError{field + ".mode", "must be a string"}
			}
			if err := mode.check(); err != nil {
				return ToolSearchConfig{}, nil, err
			}
		}
		delete(obj, "mode")
		for _, k := range []string{"maxSnapshotBytes", "snapshotTtlSeconds"} {
			if _, ok := obj[k]; ok {
				warnings = append(warnings, field+"."+k+": ignored: tool_search_code cells never suspend")
				delete(obj, k)
			}
		}
		raw, _ = json.Marshal(obj)
	}
	c, more, err := resolveConfig(raw, nil, field)
	if err != nil {
		return ToolSearchConfig{}, nil, err
	}
	return ToolSearchConfig{Enabled: c.Enabled, Mode: mode, Bounds: c}, append(warnings, more...), nil
}

// normalized gives a ToolSearchConfig built in Go ResolveToolSearch's
// treatment: the default mode, an unknown one refused, the bounds
// normalized like a Config.
func (c ToolSearchConfig) normalized() (ToolSearchConfig, error) {
	c.Mode = cmp.Or(c.Mode, ToolSearchAll)
	if err := c.Mode.check(); err != nil {
		return ToolSearchConfig{}, err
	}
	c.Bounds = c.Bounds.normalized()
	c.Bounds.Enabled = c.Enabled
	return c, nil
}

// ToolSearch is the resolved tools.toolSearch; Enabled is false when code
// mode is enabled, since code mode wins.
func (r *Runtime) ToolSearch() ToolSearchConfig { return r.search }

// catalogues reports whether runs have a hidden catalog: one of the two
// compact surfaces is enabled.
func (r *Runtime) catalogues() bool { return r.cfg.Enabled || r.search.Enabled }

// runsCells reports whether the runtime needs an engine.
func (r *Runtime) runsCells() bool {
	return r.cfg.Enabled || r.search.Enabled && r.search.Mode != ToolSearchTools
}

// Searching reports whether Tool Search shapes this run's surface.
func (run *Run) Searching() bool { return run.searching }

// shows reports whether the run's model-visible tools include name.
func (run *Run) shows(name string) bool {
	return slices.ContainsFunc(run.visible, func(d ToolDefinition) bool { return d.Name == name })
}

// The model-facing descriptions of Tool Search's controls; the surface check
// compares them.
const (
	searchCodeDescription = "Run a short JavaScript or TypeScript body to search, describe and call the hidden tool catalog. " +
		"The body is an async function: `await` freely, and its trailing expression or `return` is the result. " +
		"`tools.search(query, { limit })` ranks compact entries (`id`, `name`, `description`, `input`), " +
		"`tools.describe(id)` adds the exact `parameters` schema, `tools.callValue(id, input)` calls a tool and gives its JSON result " +
		"(`tools.call` the `{ tool, result }` envelope). MCP tools are in the catalog by id (`mcp:<server>:<tool>`) and under `MCP.<server>.<tool>(input)`. " +
		"`text(value)`, `json(value)` and `console.log` add output. No imports, files, network or environment. " +
		"A body never suspends: calls still running at its timeout are cancelled and it fails, so keep each body to a few calls."
	searchDescription   = "Search the hidden tool catalog. Returns compact entries, best first: `id`, `name`, `description`, `input` (a short type of the input). Then `tool_describe` one of them, or `tool_call` it by id."
	describeDescription = "Describe one catalog tool by its exact id (or a name only one tool has): its compact entry plus the `parameters` JSON Schema of its input, and its `outputSchema` when it has one."
	callDescription     = "Call one catalog tool by its exact id (or a name only one tool has) with `input`, an object matching its parameters. Returns the tool's own result."
)

// searchControls are the model-visible controls of a mode, in order.
func searchControls(mode ToolSearchMode) []ToolDefinition {
	code := ToolDefinition{Name: "tool_search_code", Description: searchCodeDescription, InputSchema: json.RawMessage(
		`{"type":"object","properties":{"code":{"type":"string","description":"The body: an async function body; its trailing expression or return is the result."},` +
			`"language":{"type":"string","enum":["javascript","typescript"],"description":"Source language; default javascript."}},"required":["code"],"additionalProperties":false}`)}
	tools := []ToolDefinition{
		{Name: "tool_search", Description: searchDescription, InputSchema: json.RawMessage(
			`{"type":"object","properties":{"query":{"type":"string","description":"Words of what the tool does or is called."},` +
				`"limit":{"type":"integer","minimum":1,"description":"How many entries at most."}},"required":["query"],"additionalProperties":false}`)},
		{Name: "tool_describe", Description: describeDescription, InputSchema: json.RawMessage(
			`{"type":"object","properties":{"id":{"type":"string","description":"The tool's exact id from tool_search."}},"required":["id"],"additionalProperties":false}`)},
		{Name: "tool_call", Description: callDescription, InputSchema: json.RawMessage(
			`{"type":"object","properties":{"id":{"type":"string","description":"The tool's exact id from tool_search."},` +
				`"input":{"type":"object","description":"The tool's input, matching its parameters."}},"required":["id"],"additionalProperties":false}`)},
	}
	switch mode {
	case ToolSearchCode:
		return []ToolDefinition{code}
	case ToolSearchTools:
		return tools
	}
	return append([]ToolDefinition{code}, tools...)
}

// checkSearchSurface is Tool Search's fail-closed check: its mode's controls,
// each exactly once and exactly as rendered, and only the approved
// direct-only tools; never exec or wait.
func checkSearchSurface(visible, direct []ToolDefinition, mode ToolSearchMode) error {
	want := searchControls(mode)
	seen := map[string]int{}
	for _, d := range visible {
		k := slices.IndexFunc(want, func(w ToolDefinition) bool { return w.Name == d.Name })
		switch {
		case k >= 0:
			if d.Description != want[k].Description || !bytes.Equal(d.InputSchema, want[k].InputSchema) {
				return fmt.Errorf("%w: a %s that is not Tool Search's", table.ErrFailClosed, d.Name)
			}
			seen[d.Name]++
		case d.Name == "exec" || d.Name == "wait" || table.IsToolSearchControl(d.Name):
			return fmt.Errorf("%w: %q is not a control of Tool Search mode %q", table.ErrFailClosed, d.Name, mode)
		case !slices.ContainsFunc(direct, func(x ToolDefinition) bool { return x.Name == d.Name }):
			return fmt.Errorf("%w: %q is neither a control nor a direct-only tool", table.ErrFailClosed, d.Name)
		}
	}
	for _, w := range want {
		if seen[w.Name] != 1 {
			return fmt.Errorf("%w: want one %s, have %d", table.ErrFailClosed, w.Name, seen[w.Name])
		}
	}
	return nil
}

// searchHelp ends an unknown-tool error of the structured controls.
const searchHelp = "Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."

// controlArgs are the members of the structured controls' inputs.
type controlArgs struct {
	Query json.RawMessage `json:"query"`
	Limit json.RawMessage `json:"limit"`
	ID    json.RawMessage `json:"id"`
	Input json.RawMessage `json:"input"`
}

// callControl runs tool_search, tool_describe or tool_call. Its answer is a
// ToolResult: a JSON text block and the value as details, or for tool_call
// the called tool's own result.
func (run *Run) callControl(ctx context.Context, callID, name string, args json.RawMessage) (tool.Result, error) {
	ev := tool.Event{ToolKind: tool.KindToolSearch, ToolName: name, CallID: callID, Input: args, Scope: run.opts.Scope}
	if before := run.rt.hooks.BeforeToolCall; before != nil {
		d := before(ctx, ev)
		if d.Block {
			return tool.Result{}, fmt.Errorf("%s was blocked before execution: %s", name, d.Reason)
		}
		if d.Input != nil {
			args = d.Input
		}
	}
	a, err := decodeControl(name, args)
	if err != nil {
		return tool.Result{}, err
	}
	var v any
	switch name {
	case "tool_search":
		run.searches.Add(1)
		q, n, err := searchArgs(a.Query, a.Limit)
		if err != nil {
			return tool.Result{}, err
		}
		if v, err = run.tab.Catalog.SearchEvery(q, n); err != nil {
			return tool.Result{}, err
		}
	case "tool_describe", "tool_call":
		var id string
		if json.Unmarshal(a.ID, &id) != nil {
			return tool.Result{}, tool.Message("id must be a string.")
		}
		e, err := run.tab.Catalog.ResolveEvery(bridge.Truncate(id, maxName), searchHelp)
		if err != nil {
			return tool.Result{}, err
		}
		if name == "tool_call" {
			run.calls.Add(1)
			return run.callEntry(ctx, callID, e, orEmpty(a.Input))
		}
		run.describes.Add(1)
		v = e.Described()
	}
	b, _ := json.Marshal(v)
	return tool.Result{Content: []json.RawMessage{textBlock(string(b))}, Details: v}, nil
}

// decodeControl reads a structured control's input: an object with only the
// control's own members.
func decodeControl(name string, args json.RawMessage) (controlArgs, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return controlArgs{}, tool.Messagef("%s takes one JSON object.", name)
	}
	allowed := map[string][]string{"tool_search": {"query", "limit"}, "tool_describe": {"id"}, "tool_call": {"id", "input"}}[name]
	for k := range m {
		if !slices.Contains(allowed, k) {
			return controlArgs{}, tool.Messagef("%s has no argument %q; it takes %v.", name, echoName(k), allowed)
		}
	}
	var a controlArgs
	json.Unmarshal(args, &a)
	if in := bytes.TrimSpace(a.Input); len(in) > 0 && in[0] != '{' && string(in) != "null" {
		return controlArgs{}, tool.Message("input must be an object.")
	}
	return a, nil
}

// callEntry is tool_call's call: the one executor path, as a nested call of
// the tool_call (hooks, approval, output contract, trajectory).
func (run *Run) callEntry(ctx context.Context, callID string, e catalog.Entry, input json.RawMessage) (res tool.Result, err error) {
	def := run.tab.ByID[e.ID]
	if def == nil || def.Execute == nil {
		return tool.Result{}, tool.Messagef("Tool %q cannot be called.", e.ID)
	}
	ev := tool.Event{ToolKind: tool.KindNested, ToolName: def.Name, ToolID: e.ID,
		CallID: fmt.Sprintf("tool_call:%s:%s:1", sanitizeID(callID), def.Name), ParentCallID: callID,
		Input: input, Scope: run.opts.Scope}
	start := time.Now()
	defer func() { record(run.opts.Trajectory, ev, "tool_call", start, err) }()
	return run.tab.Call(ctx, def, &ev)
}

// textBlock is an MCP text content block.
func textBlock(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
	return b
}

// ToolSearchCode runs one tool_search_code call: a cell with the catalog
// helpers that never suspends. At its timeout, calls still running are
// cancelled and it fails (timeout); yield_control fails at once. callID is
// the model's tool-call id.
func (run *Run) ToolSearchCode(ctx context.Context, callID string, args json.RawMessage) Result {
	if !run.searching || run.rt.search.Mode == ToolSearchTools {
		return run.failed(abi.CodeInvalidInput, "", "tool_search_code is not a tool of this run.")
	}
	return run.cell(ctx, callID, args, true)
}

// noWait is the failure of a tool_search_code cell that would have parked.
func (st *state) noWait() Result {
	if st.hasYield() {
		return st.run.failed(abi.CodeInvalidInput, "", "yield_control suspends a program until wait, and tool_search_code has no wait.")
	}
	return st.run.failed(abi.CodeTimeout, "", fmt.Sprintf(
		"%s: tool_search_code cannot wait, so the %d calls or timers still pending at its %s timeout were cancelled. Make fewer or faster calls per body.",
		msgTimeout, len(st.pending), st.run.rt.bounds.Timeout))
}
