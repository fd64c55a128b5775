package host

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

var scope = tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s1", RunID: "r1"}

// shipments is a core tool with a closed output schema.
func shipments() tool.Tool {
	return tool.Tool{
		Name: "shipping_list", Description: "List shipments with their payment state and weight.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"paid":{"type":"boolean"},"tons":{"type":"number"}},"required":["id","paid","tons"],"additionalProperties":false}}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			return tool.Result{Details: []map[string]any{{"id": "a", "paid": false, "tons": 12}, {"id": "b", "paid": true, "tons": 30}, {"id": "c", "paid": false, "tons": 3}}}, nil
		},
	}
}

// gate is a tool that blocks until released, to make a run suspend.
type gate struct {
	once      sync.Once
	release   chan struct{}
	calls     chan json.RawMessage
	cancelled chan struct{}
}

func newGate() *gate {
	return &gate{release: make(chan struct{}), calls: make(chan json.RawMessage, 128), cancelled: make(chan struct{}, 128)}
}

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

func (g *gate) tool() tool.Tool {
	return tool.Tool{Name: "slow_echo", Plugin: "demo", Description: "Echo after a while.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"v":{"type":"number"}}}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			g.calls <- c.Input
			select {
			case <-g.release:
			case <-ctx.Done():
				g.cancelled <- struct{}{}
				return tool.Result{}, ctx.Err()
			}
			var in map[string]any
			json.Unmarshal(c.Input, &in)
			return tool.Result{Details: in}, nil
		}}
}

func newRuntime(t testing.TB, config string, tools ...tool.Tool) *Runtime {
	t.Helper()
	return newRuntimeWith(t, &Options{Tools: tools, CodeMode: codeModeJSON(json.RawMessage(config))})
}

func newRuntimeWith(t testing.TB, o *Options) *Runtime {
	t.Helper()
	rt, err := New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

func prepare(t testing.TB, rt *Runtime, opts RunOptions) *Run {
	t.Helper()
	if opts.Scope == (tool.Scope{}) {
		opts.Scope = scope
	}
	run, err := rt.Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func code(src string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"code": src})
	return b
}

func exec(t testing.TB, run *Run, src string) Result {
	t.Helper()
	return run.Exec(context.Background(), "call_1", code(src))
}

func names(defs []ToolDefinition) string {
	var n []string
	for _, d := range defs {
		n = append(n, d.Name)
	}
	return strings.Join(n, ",")
}

func TestDisabledConfigLeavesToolExposureUnchanged(t *testing.T) {
	for _, cfg := range []string{`false`, `{"timeoutMs": 500}`, `null`} {
		rt := newRuntime(t, cfg, shipments())
		run := prepare(t, rt, RunOptions{})
		if run.Active() || names(run.Tools()) != "shipping_list" {
			t.Fatalf("%s: active=%v tools=%s", cfg, run.Active(), names(run.Tools()))
		}
		if r := exec(t, run, "return 1"); r.Status != StatusFailed || r.Error != msgDisabled {
			t.Fatalf("%s: %+v", cfg, r)
		}
	}
}

func TestEnabledConfigExposesExecWaitAndDirectOnlyTools(t *testing.T) {
	image := tool.Tool{Name: "image", DirectOnly: true, Description: "Load an image."}
	search := tool.Tool{Name: "tool_search", Execute: shipments().Execute}
	rt := newRuntime(t, `true`, shipments(), image, search)
	run := prepare(t, rt, RunOptions{})
	if got := names(run.Tools()); got != "exec,wait,image" {
		t.Fatalf("surface %s", got)
	}
	r := exec(t, run, "return ALL_TOOLS.map(t => t.id)")
	if string(r.Value) != `["openclaw:core:shipping_list"]` {
		t.Fatalf("ALL_TOOLS %s %s", r.Value, r.Error)
	}
	if !strings.Contains(string(run.Tools()[0].InputSchema), `"restartSafe":{"description":`) {
		t.Fatalf("exec schema lacks restartSafe: %s", run.Tools()[0].InputSchema)
	}
	if !strings.Contains(run.Tools()[0].Description, `- "openclaw:core:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>`) {
		t.Fatalf("quick index missing from exec description:\n%s", run.Tools()[0].Description)
	}
}

// Direct-only tools cannot put a second exec or wait, or a Tool Search
// control, on the surface: exec and wait are catalogued, the controls dropped.
func TestDirectOnlyControlNamesStayOffTheSurface(t *testing.T) {
	direct := func(name string) tool.Tool {
		return tool.Tool{Name: name, DirectOnly: true, Execute: shipments().Execute}
	}
	rt := newRuntime(t, `true`, shipments(), direct("exec"), direct("wait"), direct("tool_search"), direct("tool_call"), direct("image"))
	run := prepare(t, rt, RunOptions{})
	if got := names(run.Tools()); got != "exec,wait,image" {
		t.Fatalf("surface %s", got)
	}
	r := exec(t, run, "return ALL_TOOLS.map(t => t.id)")
	if string(r.Value) != `["openclaw:core:shipping_list","openclaw:core:exec","openclaw:core:wait"]` {
		t.Fatalf("ALL_TOOLS %s %s", r.Value, r.Error)
	}
}

func TestSurfaceCheckFailsClosed(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	execDef, waitDef := run.Tools()[0], run.Tools()[1]
	other := ToolDefinition{Name: "image"}
	for name, visible := range map[string][]ToolDefinition{
		"two execs":         {execDef, execDef, waitDef},
		"no wait":           {execDef},
		"a foreign exec":    {{Name: "exec", Description: "Run a shell command."}, waitDef},
		"a foreign wait":    {execDef, {Name: "wait"}},
		"a Tool Search one": {execDef, waitDef, {Name: "tool_search"}},
		"an unapproved one": {execDef, waitDef, other},
	} {
		if err := table.CheckSurface(visible, nil); !errors.Is(err, table.ErrFailClosed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := table.CheckSurface([]ToolDefinition{execDef, waitDef, other}, []ToolDefinition{other}); err != nil {
		t.Fatal(err)
	}
}

func TestNoToolRunsDoNotActivate(t *testing.T) {
	if run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{DisableTools: true}); run.Active() {
		t.Fatal("disableTools activated code mode")
	}
	if run := prepare(t, newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{shipments()}, Policy: &Policy{Allow: []string{}}}), RunOptions{}); run.Active() {
		t.Fatal("an empty allow list activated code mode")
	}
	if run := prepare(t, newRuntime(t, `true`), RunOptions{}); run.Active() {
		t.Fatal("a run without tools activated code mode")
	}
}

func TestDeniedToolsAreAbsentAndCannotBeCalled(t *testing.T) {
	rt := newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{shipments(), {Name: "secret", Execute: shipments().Execute}},
		Policy: &Policy{Deny: []string{"secret"}}})
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `
		const ids = ALL_TOOLS.map(t => t.id);
		try { await tools.callValue("openclaw:core:secret", {}); return "called"; } catch (e) { return [ids, e.message]; }`)
	if !strings.HasPrefix(string(r.Value), `[["openclaw:core:shipping_list"],"Unknown tool id: openclaw:core:secret`) {
		t.Fatalf("%s %s", r.Value, r.Error)
	}
}

func TestCatalogHelpersWork(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{ClientTools: []tool.Tool{{Name: "select_file", Plugin: "app",
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			return tool.Result{Content: []json.RawMessage{json.RawMessage(`{"type":"text","text":"ok"}`)}, Details: map[string]any{"path": "/tmp/x"}}, nil
		}}}})
	r := exec(t, run, `
		const [s] = await tools.search("list shipments");
		const d = await tools.describe(s.id);
		const rows = await tools.callValue(s.id, {});
		const raw = await tools.call("client:app:select_file");
		const conv = await tools.shipping_list();
		text("found " + rows.length);
		json({ unpaidHeavy: rows.filter(x => !x.paid && x.tons > 10).map(x => x.id) });
		return { id: s.id, output: d.outputSchema.type, raw: raw.result.details.path, tool: raw.tool.id, conv: conv.length };`)
	if r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
	if want := `{"id":"openclaw:core:shipping_list","output":"array","raw":"/tmp/x","tool":"client:app:select_file","conv":3}`; string(r.Value) != want {
		t.Fatalf("value %s", r.Value)
	}
	out, _ := json.Marshal(r.Output)
	if string(out) != `[{"type":"text","text":"found 3"},{"type":"json","value":{"unpaidHeavy":["a"]}}]` {
		t.Fatalf("output %s", out)
	}
	if tel := r.Telemetry; tel.SearchCount != 1 || tel.DescribeCount != 1 || tel.CallCount != 3 || tel.CatalogSize != 2 || tel.Sources.Client != 1 {
		t.Fatalf("telemetry %+v", tel)
	}
}

// ALL_TOOLS is built on first use but behaves as a frozen constant.
func TestAllToolsIsAFrozenConstant(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := exec(t, run, `
		const first = ALL_TOOLS;
		const out = [first === ALL_TOOLS, Object.isFrozen(first), Object.isFrozen(first[0]), first[0].id];
		ALL_TOOLS = [];
		out.push(ALL_TOOLS === first, delete globalThis.ALL_TOOLS);
		try { first.push(1); out.push("pushed"); } catch (e) { out.push(e.name); }
		out.push(Object.keys(globalThis).includes("ALL_TOOLS"), ALL_TOOLS.length);
		return out;`)
	if want := `[true,true,true,"openclaw:core:shipping_list",true,false,"TypeError",false,1]`; string(r.Value) != want {
		t.Fatalf("got %s %s", r.Value, r.Error)
	}
}

func TestControlToolsAreUnreachableFromGuest(t *testing.T) {
	rt := newRuntime(t, `true`, shipments())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `
		const out = [typeof __cm_bridge, typeof __cm_setup, typeof __cm_host_request, "exec" in tools, "wait" in tools];
		for (const id of ["exec", "wait", "openclaw:core:exec", "tool_search"]) {
			try { await tools.call(id, {}); out.push("called " + id); } catch (e) { out.push("refused"); }
		}
		return out;`)
	if string(r.Value) != `["undefined","undefined","undefined",false,false,"refused","refused","refused","refused"]` {
		t.Fatalf("%s %s", r.Value, r.Error)
	}
}

func TestShellExecIsCataloguedAndCallableByID(t *testing.T) {
	shell := tool.Tool{Name: "exec", Description: "Run a shell command.", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: "ran"}, nil
	}}
	rt := newRuntime(t, `true`, shell, shipments())
	run := prepare(t, rt, RunOptions{})
	if got := names(run.Tools()); got != "exec,wait" {
		t.Fatalf("surface %s", got)
	}
	r := exec(t, run, `return [await tools.callValue("openclaw:core:exec", {command: "ls"}), typeof tools.exec]`)
	if string(r.Value) != `["ran","function"]` {
		t.Fatalf("%s %s", r.Value, r.Error)
	}
}

func TestInputChecks(t *testing.T) {
	rt := newRuntime(t, `{"enabled": true, "languages": ["javascript"]}`, shipments())
	run := prepare(t, rt, RunOptions{})
	cases := map[string]string{
		`{"code": "return 1", "command": "return 2"}`: "code and command must match when both are provided.",
		`{"code": ""}`: "code or command must be a non-empty string.",
		`{"code": "return 1", "language": "python"}`:     "language must be javascript or typescript.",
		`{"code": "return 1", "language": "typescript"}`: "code mode typescript input is disabled.",
		`{"code": "ls -la"}`:                             "code-mode exec runs JavaScript or TypeScript, not shell commands.",
		`{"code": "const fs = require('fs'); return 1"}`: "code mode module access is disabled.",
		`{"command": "return await import('node:fs')"}`:  "code mode module access is disabled.",
	}
	for args, want := range cases {
		r := run.Exec(context.Background(), "c", json.RawMessage(args))
		if r.Status != StatusFailed || r.Code != abi.CodeInvalidInput || !strings.HasPrefix(r.Error, want) {
			t.Errorf("%s: %+v", args, r)
		}
	}
	if r := run.Exec(context.Background(), "c", json.RawMessage(`{"command": "return 7"}`)); string(r.Value) != "7" {
		t.Fatalf("command alias: %+v", r)
	}
}

func TestTypeScriptIsTransformed(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := run.Exec(context.Background(), "c", json.RawMessage(`{"language":"typescript","code":"const n: number = 41;\ninterface X { a: string }\nreturn n + 1;"}`))
	if string(r.Value) != "42" {
		t.Fatalf("%+v", r)
	}
	r = run.Exec(context.Background(), "c", json.RawMessage(`{"language":"typescript","code":"const n: number = ;"}`))
	if r.Code != abi.CodeInvalidInput || !strings.HasPrefix(r.Error, "typescript transform failed") {
		t.Fatalf("%+v", r)
	}
}
