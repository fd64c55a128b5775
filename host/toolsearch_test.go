package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

// searchRuntime is a Tool Search runtime over the shipments tool, the docs
// MCP server and extra tools.
func searchRuntime(t *testing.T, toolSearch string, o Options, extra ...tool.Tool) (*Runtime, *fakeMCP) {
	t.Helper()
	src := &fakeMCP{}
	o.Tools = append([]tool.Tool{shipments()}, extra...)
	o.Sources = []tool.Source{src}
	o.ToolSearch = toolSearchJSON(json.RawMessage(toolSearch))
	return newRuntimeWith(t, &o), src
}

func control(t *testing.T, run *Run, name, args string) (tool.Result, error) {
	t.Helper()
	return run.CallDirect(context.Background(), "call_ts", name, json.RawMessage(args))
}

func detailsJSON(t *testing.T, res tool.Result) string {
	t.Helper()
	b, err := json.Marshal(res.Details)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestToolSearchSurfaceByMode(t *testing.T) {
	image := tool.Tool{Name: "image", DirectOnly: true, Description: "Load an image.", Execute: shipments().Execute}
	for mode, want := range map[string]string{
		`true`:                              "tool_search_code,tool_search,tool_describe,tool_call,image",
		`{"enabled":true,"mode":"code"}`:    "tool_search_code,image",
		`{"enabled":true,"mode":"tools"}`:   "tool_search,tool_describe,tool_call,image",
		`{"mode":"tools"}`:                  "shipping_list,image,search_docs", // an object without enabled stays off
		`{"enabled":false,"timeoutMs":500}`: "shipping_list,image,search_docs",
	} {
		rt, _ := searchRuntime(t, mode, Options{}, image)
		run := prepare(t, rt, RunOptions{})
		if got := names(run.Tools()); got != want {
			t.Errorf("%s: surface %s, want %s", mode, got, want)
		}
		if run.Active() {
			t.Errorf("%s: code mode active", mode)
		}
	}
	// A run that disables tools gets no controls: as with code mode, its
	// surface is left alone.
	rt, _ := searchRuntime(t, `true`, Options{})
	if run := prepare(t, rt, RunOptions{DisableTools: true}); run.Searching() || strings.Contains(names(run.Tools()), "tool_") {
		t.Fatalf("disableTools: searching=%v %s", run.Searching(), names(run.Tools()))
	}
}

// With both enabled, code mode wins: no control is visible or catalogued,
// not even a registered tool that has a control's name.
func TestCodeModeWinsOverToolSearch(t *testing.T) {
	impostor := tool.Tool{Name: "tool_call", Execute: shipments().Execute}
	rt, _ := searchRuntime(t, `true`, Options{CodeMode: &Config{Enabled: true}}, impostor)
	if rt.ToolSearch().Enabled {
		t.Fatal("Tool Search still enabled next to code mode")
	}
	run := prepare(t, rt, RunOptions{})
	if got := names(run.Tools()); got != "exec,wait" || run.Searching() {
		t.Fatalf("surface %s searching=%v", got, run.Searching())
	}
	for _, e := range run.Catalog().Entries() {
		if table.IsToolSearchControl(e.Name) {
			t.Fatalf("control %s catalogued", e.ID)
		}
	}
	if _, err := control(t, run, "tool_search", `{"query":"ship"}`); err == nil {
		t.Fatal("tool_search answered in a code-mode run")
	}
	if r := run.ToolSearchCode(context.Background(), "c", code("return 1")); r.Status != StatusFailed {
		t.Fatalf("tool_search_code ran in a code-mode run: %+v", r)
	}
}

func TestToolSearchSurfaceCheckFailsClosed(t *testing.T) {
	want := searchControls(ToolSearchAll)
	other := ToolDefinition{Name: "image"}
	forged := want[1]
	forged.Description = "Search anything, and also run shell commands."
	for name, visible := range map[string][]ToolDefinition{
		"missing tool_call":  want[:3],
		"a second search":    append(append([]ToolDefinition{}, want...), want[1]),
		"a forged search":    {want[0], forged, want[2], want[3]},
		"exec next to it":    append(append([]ToolDefinition{}, want...), ToolDefinition{Name: "exec"}),
		"wait next to it":    append(append([]ToolDefinition{}, want...), table.WaitDefinition()),
		"an unapproved tool": append(append([]ToolDefinition{}, want...), other),
	} {
		if err := checkSearchSurface(visible, nil, ToolSearchAll); !errors.Is(err, table.ErrFailClosed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := checkSearchSurface(searchControls(ToolSearchCode)[:1], nil, ToolSearchTools); !errors.Is(err, table.ErrFailClosed) {
		t.Errorf("tool_search_code in tools mode: %v", err)
	}
	if err := checkSearchSurface(append(want, other), []ToolDefinition{other}, ToolSearchAll); err != nil {
		t.Fatal(err)
	}
}

func TestToolSearchStructuredControls(t *testing.T) {
	var events []string
	var mu sync.Mutex
	var trajectory []NestedCall
	hooks := tool.Hooks{BeforeToolCall: func(_ context.Context, e tool.Event) tool.Decision {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, string(e.ToolKind)+" "+e.ToolName+" "+e.ToolID)
		return tool.Decision{}
	}}
	rt, src := searchRuntime(t, `{"enabled":true,"mode":"tools"}`, Options{Hooks: hooks})
	run := prepare(t, rt, RunOptions{Trajectory: func(c NestedCall) { trajectory = append(trajectory, c) }})

	res, err := control(t, run, "tool_search", `{"query":"docs"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := detailsJSON(t, res); !strings.Contains(got, `"id":"mcp:docs:search_docs"`) || !strings.Contains(got, `"input":"{ query: string; limit?: number }"`) {
		t.Fatalf("search found no MCP tool with its input: %s", got)
	}
	if len(res.Content) != 1 || !strings.Contains(string(res.Content[0]), `search_docs`) {
		t.Fatalf("search content %s", res.Content)
	}
	res, err = control(t, run, "tool_describe", `{"id":"mcp:docs:search_docs"}`)
	if err != nil || !strings.Contains(detailsJSON(t, res), `"parameters":{"type":"object"`) {
		t.Fatalf("describe: %v %s", err, detailsJSON(t, res))
	}
	res, err = control(t, run, "tool_call", `{"id":"mcp:docs:search_docs","input":{"query":"x"}}`)
	if err != nil || !strings.Contains(detailsJSON(t, res), `"structuredContent":{"input":{"query":"x"}}`) {
		t.Fatalf("call MCP: %v %s", err, detailsJSON(t, res))
	}
	res, err = control(t, run, "tool_call", `{"id":"shipping_list"}`)
	if err != nil || !strings.Contains(detailsJSON(t, res), `"tons":12`) {
		t.Fatalf("call by name: %v %s", err, detailsJSON(t, res))
	}
	if len(src.calls) != 1 {
		t.Fatalf("MCP calls %v", src.calls)
	}

	mu.Lock()
	got := strings.Join(events, "\n")
	mu.Unlock()
	want := "tool_search tool_search \ntool_search tool_describe \ntool_search tool_call \nnested_tool search_docs mcp:docs:search_docs\n" +
		"tool_search tool_call \nnested_tool shipping_list openclaw:core:shipping_list"
	if got != want {
		t.Fatalf("hook events:\n%s\nwant:\n%s", got, want)
	}
	if len(trajectory) != 2 || trajectory[0].ParentCallID != "call_ts" || trajectory[0].Method != "tool_call" ||
		trajectory[0].ID != "tool_call:call_ts:search_docs:1" || trajectory[1].ToolID != "openclaw:core:shipping_list" {
		t.Fatalf("trajectory %+v", trajectory)
	}
	if tel := run.telemetry(); tel.SearchCount != 1 || tel.DescribeCount != 1 || tel.CallCount != 2 {
		t.Fatalf("telemetry %+v", tel)
	}
}

// Every way a structured control can be misused is a clear error, and none
// reaches a tool.
func TestToolSearchControlErrors(t *testing.T) {
	denied := tool.Tool{Name: "drop_all", Description: "Drop everything.", Execute: func(context.Context, tool.Call) (tool.Result, error) {
		panic("a denied tool ran")
	}}
	guarded := tool.Tool{Name: "guarded", Description: "Needs approval.", Execute: func(context.Context, tool.Call) (tool.Result, error) {
		panic("an unapproved tool ran")
	}}
	hooks := tool.Hooks{Approve: func(context.Context, tool.Event) (bool, string, error) { return false, "no", nil }}
	rt, _ := searchRuntime(t, `true`, Options{Hooks: hooks, Policy: &Policy{Deny: []string{"drop_all"}, Approval: []string{"guarded"}}}, denied, guarded)
	run := prepare(t, rt, RunOptions{})
	for args, want := range map[string]string{
		`tool_search {"query":1}`:                               "query must be a string.",
		`tool_search {"query":"x","limit":0}`:                   "limit must be a positive integer.",
		`tool_search {"query":"x","extra":1}`:                   `tool_search has no argument "extra"`,
		`tool_search []`:                                        "tool_search takes one JSON object.",
		`tool_describe {"id":"drop_all"}`:                       "Unknown tool id: drop_all.",
		`tool_describe {"id":7}`:                                "id must be a string.",
		`tool_call {"id":"shiping_list"}`:                       "Did you mean: shipping_list? Use tool_search",
		`tool_call {"id":"drop_all","input":{}}`:                "Unknown tool id: drop_all.",
		`tool_call {"id":"guarded"}`:                            `Tool "openclaw:core:guarded" was blocked before execution: no`,
		`tool_call {"id":"shipping_list","input":"x"}`:          "input must be an object.",
		`tool_call {"id":"` + strings.Repeat("x", 5000) + `"}`:  "Unknown tool id: xxxx",
		`tool_search_code {"code":"return 1"}`:                  "is not a model-visible tool of this run",
		`tool_describe {"id":"openclaw:core:tool_search_code"}`: "Unknown tool id",
		`tool_call {"id":"exec","input":{"code":"while(1){}"}}`: "Unknown tool id: exec.",
		`tool_call {"id":"tool_search","input":{"query":"x"}}`:  "Unknown tool id: tool_search.",
		`tool_call {"id":"mcp:docs:search_docs","input":[1,2]}`: "input must be an object.",
	} {
		name, in, _ := strings.Cut(args, " ")
		_, err := control(t, run, name, in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

func TestToolSearchCode(t *testing.T) {
	g := newGate()
	defer g.open()
	rt, src := searchRuntime(t, fmt.Sprintf(`{"enabled":true,"timeoutMs":%d}`, parkTimeoutMs), Options{}, g.tool())
	run := prepare(t, rt, RunOptions{})
	ctx := context.Background()

	r := run.ToolSearchCode(ctx, "c1", code(`
		const hits = await tools.search("docs");
		const d = await tools.describe(hits[0].id);
		const viaTools = await tools.callValue(hits[0].id, {query: "a"});
		const viaMCP = await MCP.docs.searchDocs({query: "b"});
		const ship = await tools.callValue("shipping_list", {});
		return {id: d.id, params: Object.keys(d.parameters.properties), viaTools: viaTools.structuredContent.input.query,
			viaMCP: viaMCP.structuredContent.input.query, tons: ship[0].tons};`))
	if r.Status != StatusCompleted || string(r.Value) != `{"id":"mcp:docs:search_docs","params":["query","limit"],"viaTools":"a","viaMCP":"b","tons":12}` {
		t.Fatalf("%+v", r)
	}
	if len(src.calls) != 2 {
		t.Fatalf("MCP calls %v", src.calls)
	}

	// A slow call does not park: the body fails at its timeout, and the call
	// is cancelled.
	r = run.ToolSearchCode(ctx, "c2", code(`return await tools.callValue("slow_echo", {v: 1})`))
	if r.Status != StatusFailed || r.Code != abi.CodeTimeout || r.RunID != "" || !strings.Contains(r.Error, "tool_search_code cannot wait") {
		t.Fatalf("slow call: %+v", r)
	}
	<-g.calls
	<-g.cancelled

	for src, want := range map[string]string{
		`await yield_control("later"); return 1`:                 "tool_search_code has no wait",
		`await new Promise(r => setTimeout(r, 60000)); return 1`: "tool_search_code cannot wait",
	} {
		if r := run.ToolSearchCode(ctx, "c3", code(src)); r.Status != StatusFailed || !strings.Contains(r.Error, want) {
			t.Errorf("%s: %+v", src, r)
		}
	}
	if r := run.ToolSearchCode(ctx, "c4", json.RawMessage(`{"code":"return 1","restartSafe":true}`)); r.Status != StatusFailed || !strings.Contains(r.Error, "restartSafe is an exec option") {
		t.Fatalf("restartSafe: %+v", r)
	}
	if r := run.Exec(ctx, "c5", code("return 1")); r.Status != StatusFailed || r.Error != msgDisabled {
		t.Fatalf("exec in a Tool Search run: %+v", r)
	}
	if rt.store.sessionRuns(scope) != 0 {
		t.Fatal("a tool_search_code body parked")
	}
}

func TestResolveToolSearch(t *testing.T) {
	c, warnings, err := ResolveToolSearch(json.RawMessage(`{"enabled":true,"mode":"code","timeoutMs":2000,"maxSearchLimit":5,"snapshotTtlSeconds":9,"bogus":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Enabled || c.Mode != ToolSearchCode || c.Bounds.Timeout.Milliseconds() != 2000 || c.Bounds.MaxSearchLimit != 5 || c.Bounds.SearchDefaultLimit != 5 {
		t.Fatalf("%+v", c)
	}
	if got := strings.Join(warnings, "\n"); !strings.Contains(got, "tools.toolSearch.snapshotTtlSeconds: ignored") || !strings.Contains(got, "tools.toolSearch.bogus: unknown key ignored") {
		t.Fatalf("warnings %q", warnings)
	}
	if c, _, _ := ResolveToolSearch(nil); c.Enabled || c.Mode != ToolSearchAll {
		t.Fatalf("missing: %+v", c)
	}
	for raw, field := range map[string]string{
		`{"mode":"fast"}`:          "tools.toolSearch.mode",
		`{"mode":3}`:               "tools.toolSearch.mode",
		`{"enabled":"yes"}`:        "tools.toolSearch.enabled",
		`{"timeoutMs":"1s"}`:       "tools.toolSearch.timeoutMs",
		`"on"`:                     "tools.toolSearch",
		`{"enabled":true,"mode":}`: "tools.toolSearch",
	} {
		var ce *ConfigError
		if _, _, err := ResolveToolSearch(json.RawMessage(raw)); !errors.As(err, &ce) || ce.Field != field {
			t.Errorf("%s: %v, want a *ConfigError on %s", raw, err, field)
		}
	}
}
