package host

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

// namesMCP serves tools named as real MCP servers name them: snake_case,
// kebab-case, a server name that is no identifier, and a tool named like a
// probe. Every call answers with its catalog id.
type namesMCP struct{}

func (namesMCP) Version() uint64 { return 0 }

func (namesMCP) Tools() []tool.Tool {
	answer := func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: map[string]any{"content": []any{}, "structuredContent": map[string]any{"id": c.ToolID, "input": json.RawMessage(c.Input)}}}, nil
	}
	var out []tool.Tool
	for server, names := range map[string][]string{
		"memory":          {"read_graph", "search_nodes", "create_entities"},
		"everything":      {"get-sum", "echo", "then"},
		"chrome-devtools": {"take_screenshot"},
	} {
		for _, n := range names {
			out = append(out, tool.Tool{Name: n, MCPServer: server, Description: "The " + n + " tool.", Execute: answer})
		}
	}
	return out
}

func namesRun(t *testing.T, policy Policy, hooks tool.Hooks) *Run {
	t.Helper()
	rt, err := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Sources: []tool.Source{namesMCP{}}, Hooks: hooks, Policy: &policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return prepare(t, rt, RunOptions{})
}

// completed runs a cell and decodes its value, failing unless it completes.
func completed(t *testing.T, run *Run, src string) map[string]any {
	t.Helper()
	r := exec(t, run, src)
	for r.Status == StatusWaiting {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	if r.Status != StatusCompleted {
		t.Fatalf("%s: %s", r.Status, r.Error)
	}
	var out map[string]any
	if err := json.Unmarshal(r.Value, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMCPExactAndCamelNames(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hooks := tool.Hooks{BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
		if e.ToolKind != tool.KindNested {
			return tool.Decision{}
		}
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, e.ToolID)
		return tool.Decision{Block: e.ToolID == "mcp:memory:search_nodes", Reason: "no searching"}
	}}
	run := namesRun(t, Policy{}, hooks)
	out := completed(t, run, `
		const id = async (f) => (await f({ a: 1 })).structuredContent.id;
		const blocked = async (f) => { try { await f({}); return "called"; } catch (e) { return e.message; } };
		return {
			memory: [await id(MCP.memory.read_graph), await id(MCP.memory.readGraph)],
			sum: [await id(MCP.everything["get-sum"]), await id(MCP.everything.getSum)],
			server: [await id(MCP["chrome-devtools"].take_screenshot), await id(MCP.chromeDevtools.takeScreenshot)],
			then: [await id(MCP.everything.then2), typeof MCP.everything.then],
			same: MCP.memory.read_graph === MCP.memory.readGraph && MCP["chrome-devtools"] === MCP.chromeDevtools,
			policy: [await blocked(MCP.memory.search_nodes), await blocked(MCP.memory.searchNodes)],
		};`)
	want := map[string]any{
		"memory": []any{"mcp:memory:read_graph", "mcp:memory:read_graph"},
		"sum":    []any{"mcp:everything:get-sum", "mcp:everything:get-sum"},
		"server": []any{"mcp:chrome-devtools:take_screenshot", "mcp:chrome-devtools:take_screenshot"},
		"then":   []any{"mcp:everything:then", "undefined"},
		"same":   true,
		"policy": []any{
			`Tool "mcp:memory:search_nodes" was blocked before execution: no searching`,
			`Tool "mcp:memory:search_nodes" was blocked before execution: no searching`,
		},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got  %v\nwant %v", out, want)
	}
	if !slices.Equal(seen, []string{"mcp:memory:read_graph", "mcp:memory:read_graph", "mcp:everything:get-sum", "mcp:everything:get-sum",
		"mcp:chrome-devtools:take_screenshot", "mcp:chrome-devtools:take_screenshot", "mcp:everything:then",
		"mcp:memory:search_nodes", "mcp:memory:search_nodes"}) {
		t.Errorf("hooks saw %v", seen)
	}
	// A denied tool is gone by both names.
	run = namesRun(t, Policy{Deny: []string{"read_graph"}}, tool.Hooks{})
	out = completed(t, run, `return { exact: "read_graph" in MCP.memory, camel: "readGraph" in MCP.memory };`)
	if out["exact"] != false || out["camel"] != false {
		t.Errorf("denied tool still present: %v", out)
	}
}

// A name that is not there fails when called, with the closest real names;
// everything that only looks keeps working.
func TestMissingNames(t *testing.T) {
	run := namesRun(t, Policy{}, tool.Hooks{})
	out := completed(t, run, `
		const fails = async (f) => { try { await f(); return "no error"; } catch (e) { return e.name + ": " + e.message; } };
		return {
			tool: await fails(() => MCP.memory.readGraf({})),
			kebab: await fails(() => MCP.everything["get-summ"]({})),
			server: await fails(() => MCP.memroy.readGraph({})),
			convenience: await fails(() => tools.read_graph({})),
			helper: await fails(() => tools.serch("x")),
			rejects: await fails(() => MCP.memory.nope.call(null, {})),
		};`)
	want := map[string]any{
		"tool":        `TypeError: MCP.memory has no tool "readGraf". Closest: readGraph. MCP.$search(query) finds MCP tools.`,
		"kebab":       `TypeError: MCP.everything has no tool "get-summ". Closest: "get-sum" (getSum). MCP.$search(query) finds MCP tools.`,
		"server":      `TypeError: MCP has no server "memroy". Closest: memory. MCP.$api() lists them.`,
		"convenience": `TypeError: tools has no function "read_graph". It is an MCP tool: call MCP.memory.read_graph(input).`,
		"helper":      `TypeError: tools has no function "serch". Closest: tools.search, MCP.everything.echo. tools.search(query) finds catalog tools.`,
		"rejects":     `TypeError: MCP.memory has no tool "nope". Closest: readGraph, searchNodes, createEntities. MCP.$search(query) finds MCP tools.`,
	}
	for k, w := range want {
		if out[k] != w {
			t.Errorf("%s:\n got %v\nwant %v", k, out[k], w)
		}
	}

	out = completed(t, run, `
		const m = MCP.memory;
		const writes = [];
		// The cell is sloppy code, where a refused write is silent; strict
		// functions make each refusal a TypeError.
		for (const f of [
			function () { "use strict"; m.readGraph = 1; }, function () { "use strict"; m.extra = 1; },
			function () { "use strict"; delete m.readGraph; }, function () { "use strict"; MCP.memory = 1; },
			function () { "use strict"; tools.search = 1; }, function () { "use strict"; MCP.extra = {}; },
			() => Object.defineProperty(m, "x", { value: 1 }), () => Object.setPrototypeOf(m, {}),
		]) {
			try { f(); writes.push("allowed"); } catch (e) { writes.push(e.name); }
		}
		m.readGraph = 1;
		return {
			json: JSON.stringify(MCP.memory),
			keys: Object.keys(MCP.memory),
			root: Object.keys(MCP),
			has: ["readGraph" in m, "read_graph" in m, "nope" in m, "then" in m],
			typeofs: [typeof m.read_graph, typeof m.then, typeof m.toJSON, typeof m.constructor, typeof m.toString,
				typeof m.nope, typeof m[Symbol.iterator], typeof m[Symbol.toPrimitive], typeof MCP.then, typeof tools.then],
			awaited: [(await m) === m, (await MCP) === MCP, (await tools) === tools],
			frozen: [Object.isFrozen(m), Object.isFrozen(MCP), Object.isFrozen(tools), Object.isFrozen(namespaces)],
			own: Object.getOwnPropertyNames(m).length === Object.keys(m).length,
			proto: Object.getPrototypeOf(m),
			tag: Object.prototype.toString.call(m),
			spread: Object.keys({ ...m }).length,
			destructured: (() => { const { readGraph, nope } = m; return [typeof readGraph, typeof nope]; })(),
			writes,
			unchanged: typeof m.readGraph,
		};`)
	want = map[string]any{
		"json":         `{"resources":{},"prompts":{}}`,
		"keys":         []any{"$api", "createEntities", "create_entities", "readGraph", "read_graph", "searchNodes", "search_nodes", "resources", "prompts"},
		"root":         []any{"chromeDevtools", "chrome-devtools", "everything", "memory"},
		"has":          []any{true, true, false, false},
		"typeofs":      []any{"function", "undefined", "undefined", "undefined", "undefined", "function", "undefined", "undefined", "undefined", "undefined"},
		"awaited":      []any{true, true, true},
		"frozen":       []any{true, true, true, true},
		"own":          true,
		"proto":        nil,
		"tag":          "[object Object]",
		"spread":       float64(9),
		"destructured": []any{"function", "function"},
		"writes":       []any{"TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError"},
		"unchanged":    "function",
	}
	for k, w := range want {
		if !reflect.DeepEqual(out[k], w) {
			t.Errorf("%s: got %v, want %v", k, out[k], w)
		}
	}
}

// A returned or thrown guarded object encodes as the plain object would.
func TestGuardedObjectsAsValues(t *testing.T) {
	run := namesRun(t, Policy{}, tool.Hooks{})
	r := exec(t, run, `return MCP.memory;`)
	if r.Status != StatusCompleted || string(r.Value) != `{"resources":{},"prompts":{}}` {
		t.Errorf("return MCP.memory: %+v", r)
	}
	r = exec(t, run, `text(MCP.memory); json(tools); return MCP.nope;`)
	if r.Status != StatusCompleted {
		t.Errorf("output of guarded objects: %+v", r)
	}
	r = exec(t, run, `throw MCP.memory;`)
	if r.Status != StatusFailed || r.Code != "internal_error" {
		t.Errorf("throw MCP.memory: %+v", r)
	}
}

func TestMCPSearchFromACell(t *testing.T) {
	run := namesRun(t, Policy{}, tool.Hooks{})
	out := completed(t, run, `
		const [hit] = await MCP.$search("get sum");
		const camel = await MCP.$search("takeScreenshot", { limit: 1 });
		const called = await eval(hit.path)({ a: 1, b: 2 });
		const errors = [];
		for (const args of [[1], ["x", { limit: 0 }], ["x", { limit: "2" }]]) {
			try { await MCP.$search(...args); } catch (e) { errors.push(e.message); }
		}
		return { hit, camel: camel.map((h) => h.path), called: called.structuredContent.id,
			all: (await MCP.$search("", { limit: 50 })).length, errors,
			catalog: (await tools.search("sum")).length };`)
	wantHit := map[string]any{"path": `MCP.everything["get-sum"]`, "server": "everything", "name": "get-sum", "method": "getSum",
		"id": "mcp:everything:get-sum", "description": "The get-sum tool.", "source": "mcp", "sourceName": "everything",
		"input": "Record<string, never>"}
	if !reflect.DeepEqual(out["hit"], wantHit) {
		t.Errorf("hit %v", out["hit"])
	}
	if !reflect.DeepEqual(out["camel"], []any{"MCP.chromeDevtools.take_screenshot"}) {
		t.Errorf("camel %v", out["camel"])
	}
	if out["called"] != "mcp:everything:get-sum" || out["all"] != float64(7) || out["catalog"] != float64(0) {
		t.Errorf("%v", out)
	}
	if !reflect.DeepEqual(out["errors"], []any{"query must be a string.", "limit must be a positive integer.", "limit must be a positive integer."}) {
		t.Errorf("errors %v", out["errors"])
	}
	if n := run.searches.Load(); n != 7 { // tools.search too
		t.Errorf("searches counted %d", n)
	}
}

// Namespace globals and namespaces answer missing members the same way.
func TestMissingNamespaceMembers(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{})
	out := completed(t, run, `
		const fails = (f) => { try { f(); return "no error"; } catch (e) { return e.message; } };
		return {
			member: fails(() => Issues.lst()),
			ns: fails(() => namespaces.Isues.list()),
			probes: [typeof Issues.then, typeof Issues.toString, "list" in Issues, JSON.stringify(Object.keys(Issues))],
		};`)
	if got := out["member"]; got != `Issues has no member "lst". Closest: list.` {
		t.Errorf("member: %v", got)
	}
	if got := out["ns"]; got != `namespaces has no namespace "Isues". Closest: Issues.` {
		t.Errorf("ns: %v", got)
	}
	if p := out["probes"].([]any); p[0] != "undefined" || p[1] != "function" || p[2] != true {
		t.Errorf("probes: %v", p)
	}
}

// The prelude's probe names are the catalog's, which no server or tool
// takes as a property.
func TestProbeNamesAgree(t *testing.T) {
	m := regexp.MustCompile(`(?s)for \(const n of \[(.*?)\]\) probe\[n\] = true;`).FindStringSubmatch(preludeJS)
	if m == nil {
		t.Fatal("the prelude's probe list is not where the test looks")
	}
	var js []string
	if err := json.Unmarshal([]byte("["+m[1]+"]"), &js); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(js, catalog.ProbeNames()) {
		t.Errorf("prelude %v\ncatalog %v", js, catalog.ProbeNames())
	}
}

// In a large catalog the closest name is still found. Its cells hold only
// the names their code mentions, so a name they lack is resolved by the
// host when called: a mistyped one is a rejected call naming the closest.
func TestMissingNameInALargeCatalog(t *testing.T) {
	var many []tool.Tool
	for i := range 3000 {
		many = append(many, tool.Tool{Name: fmt.Sprintf("list_records_of_kind_%04d", i), Plugin: "p",
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) { return tool.Result{}, nil }})
	}
	run := prepare(t, newRuntime(t, `{"enabled": true, "timeoutMs": 60000}`, many...), RunOptions{})
	out := completed(t, run, `
		const first = async (f) => { try { await f(); } catch (e) { return e.message.split("Did you mean: ")[1].split(/[,?]/)[0]; } };
		return {
			typo: await first(() => tools.lst_records_of_kind_2042()),
			swap: await first(() => tools.list_recrods_of_kind_1999()),
			camel: await first(() => tools.listRecordsOfKind0007()),
		};`)
	want := map[string]any{"typo": "list_records_of_kind_2042", "swap": "list_records_of_kind_1999", "camel": "list_records_of_kind_0007"}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %v, want %v", out, want)
	}
}
