package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/host/internal/bridge"

	"github.com/seed11a79d2d/codemode/tool"
)

// fakeMCP is an in-process MCPSource with one server, "docs".
type fakeMCP struct{ calls []string }

func (f *fakeMCP) Version() uint64 { return 0 }

func (f *fakeMCP) Tools() []tool.Tool {
	return []tool.Tool{{
		Name: "search_docs", MCPServer: "docs", Description: "Search the docs.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"number","default":3}},"required":["query"]}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			f.calls = append(f.calls, string(c.Input))
			if strings.Contains(string(c.Input), "fail") {
				return tool.Result{Details: map[string]any{"content": []any{map[string]any{"type": "text", "text": "no such doc"}}, "isError": true}}, nil
			}
			return tool.Result{Details: map[string]any{"content": []any{map[string]any{"type": "text", "text": "found"}}, "structuredContent": map[string]any{"input": json.RawMessage(c.Input)}}}, nil
		},
	}}
}

func (f *fakeMCP) MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error) {
	if server != "docs" {
		return nil, tool.ErrUnknownServer
	}
	return map[string]any{"method": method, "params": params}, nil
}

// mcpRun prepares a run on a runtime with src and the shipments tool.
func mcpRun(t *testing.T, src *fakeMCP) *Run {
	rt, err := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{shipments()}, Sources: []tool.Source{src}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return prepare(t, rt, RunOptions{})
}

func TestMCPNamespace(t *testing.T) {
	src := &fakeMCP{}
	run := mcpRun(t, src)
	if d := run.Tools()[0].Description; !strings.Contains(d, "MCP.<server>.<tool>") {
		t.Fatalf("exec description lacks MCP guidance:\n%s", d)
	}
	r := exec(t, run, `
		const out = {};
		out.allTools = ALL_TOOLS.map(t => t.id);
		out.search = (await tools.search("docs")).length;
		out.files = await API.list("mcp");
		out.dts = (await API.read("mcp/docs.d.ts")).includes("function searchDocs(");
		out.hit = (await MCP.docs.searchDocs({query: "x"})).structuredContent.input;
		out.isError = (await MCP.docs.searchDocs({query: "fail"})).isError;
		try { await MCP.docs.searchDocs({}); } catch (e) { out.missing = e.message; }
		try { await MCP.docs.searchDocs("x"); } catch (e) { out.notObject = e.message; }
		try { await tools.callValue("mcp:docs:search_docs", {query: "x"}); } catch (e) { out.viaTools = e.message.split(".")[0]; }
		try { await API.read("../etc/passwd"); } catch (e) { out.badPath = e.message; }
		out.resource = await MCP.docs.resources.read({uri: "memo://one"});
		out.api = (await MCP.docs.$api("searchDocs", {schema: true})).scope;
		out.root = (await MCP.$api()).servers.map(s => s.identifier);
		return out;`)
	if r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
	var out map[string]any
	json.Unmarshal(r.Value, &out)
	want := map[string]string{
		"allTools":  `[openclaw:core:shipping_list]`,
		"search":    `0`,
		"files":     `[map[bytes:%v path:mcp/index.d.ts] map[bytes:%v path:mcp/docs.d.ts]]`,
		"dts":       `true`,
		"hit":       `map[limit:3 query:x]`,
		"isError":   `true`,
		"missing":   `Missing required MCP namespace argument: query`,
		"notObject": `MCP namespace tools accept one object argument.`,
		"viaTools":  `Unknown tool id: mcp:docs:search_docs`,
		"badPath":   `invalid API file path`,
		"resource":  `map[method:resources/read params:map[uri:memo://one]]`,
		"api":       `tool`,
		"root":      `[docs]`,
	}
	for k, w := range want {
		got := fmt.Sprint(out[k])
		if k == "files" {
			files := out[k].([]any)
			w = fmt.Sprintf(w, files[0].(map[string]any)["bytes"], files[1].(map[string]any)["bytes"])
		}
		if got != w {
			t.Errorf("%s: got %s, want %s", k, got, w)
		}
	}
	if len(src.calls) != 2 {
		t.Fatalf("MCP calls %v (API.read must make none)", src.calls)
	}
}

// A refused operation has no nested call id of its own: like a denied tool's
// call, it is named after the bridge operation.
func TestRefusedMCPOperationCallName(t *testing.T) {
	rt := newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Sources: []tool.Source{&fakeMCP{}}, Policy: &Policy{Deny: []string{"resources/read"}}})
	run := prepare(t, rt, RunOptions{})
	if got := run.newRequest(bridge.MCPRequest, "mcp_request", `{"server":"docs","method":"resources/read"}`).name; got != "mcp_request" {
		t.Errorf("refused: %s", got)
	}
	if got := run.newRequest(bridge.MCPRequest, "mcp_request", `{"server":"docs","method":"resources/list"}`).name; got != "resources/list" {
		t.Errorf("kept: %s", got)
	}
}

// TestNamespacesHoldMCP: with MCP servers visible, namespaces.MCP is the MCP
// global, listed first beside the plugin namespaces; without them namespaces
// has no MCP member (the namespace tests check an empty one).
func TestNamespacesHoldMCP(t *testing.T) {
	rt, err := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: trackerTools(nil), Sources: []tool.Source{&fakeMCP{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	if err := rt.RegisterNamespace("tracker", issuesNamespace(nil)); err != nil {
		t.Fatal(err)
	}
	r := exec(t, prepare(t, rt, RunOptions{}), `return [namespaces.MCP === MCP, Object.keys(namespaces), Object.isFrozen(namespaces)]`)
	if string(r.Value) != `[true,["MCP","Issues"],true]` {
		t.Fatalf("%s %+v", r.Value, r)
	}
}

// toolSource is a [tool.Source] of fixed tools.
type toolSource []tool.Tool

func (s toolSource) Tools() []tool.Tool { return s }

func (s toolSource) Version() uint64 { return 0 }

// TestMissingMCPArguments: the message names every missing required key,
// with "argument" for one and "arguments" for more; a default fills a key.
func TestMissingMCPArguments(t *testing.T) {
	called := 0
	geo := tool.Tool{Name: "route", MCPServer: "maps", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		called++
		return tool.Result{Details: map[string]any{"content": []any{}}}, nil
	}, InputSchema: json.RawMessage(`{"type":"object","properties":{"from":{"type":"string"},"to":{"type":"string"},"mode":{"type":"string","default":"walk"}},"required":["from","to","mode"]}`)}
	rt, err := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Sources: []tool.Source{toolSource{geo}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	r := exec(t, prepare(t, rt, RunOptions{}), `
		const out = [];
		for (const input of [{}, {from: "a"}]) {
			try { await MCP.maps.route(input); } catch (e) { out.push(e.message); }
		}
		await MCP.maps.route({from: "a", to: "b"});
		return out;`)
	want := `["Missing required MCP namespace arguments: from, to","Missing required MCP namespace argument: to"]`
	if string(r.Value) != want || called != 1 {
		t.Fatalf("%s %+v (called %d)", r.Value, r, called)
	}
}

// MCP tools have side effects as far as the host knows: a restart-safe run
// refuses them, and resources and prompts too, before anything reaches the
// server.
func TestRestartSafeRunsRefuseMCP(t *testing.T) {
	src := &fakeMCP{}
	run := mcpRun(t, src)
	for _, cell := range []string{
		`return await MCP.docs.searchDocs({query: "x"})`,
		`return await MCP.docs.resources.read({uri: "memo://one"})`,
	} {
		b, _ := json.Marshal(map[string]any{"code": cell, "restartSafe": true})
		r := run.Exec(context.Background(), "c", b)
		for r.Status == StatusWaiting {
			r = run.Wait(context.Background(), waitArgs(r.RunID))
		}
		if r.Status != StatusFailed || r.Error != msgRestartSafeSideEffect || len(src.calls) != 0 {
			t.Fatalf("%s: %+v, server saw %v", cell, r, src.calls)
		}
	}
}

func TestNestedCallIDsNameTheTool(t *testing.T) {
	run := mcpRun(t, &fakeMCP{})
	for _, c := range []struct{ op, payload, want string }{
		{"mcp", `{"id":"mcp:docs:search_docs","input":{"query":"x"}}`, "search_docs"},
		{"callValue", `{"id":"shipping_list","input":{}}`, "shipping_list"},
		{"call", `{"id":"openclaw:core:nope","input":{}}`, "call"},
		{"call", `{"input":{},"id":"shipping_list"}`, "shipping_list"},
		{"search", `{"query":"x"}`, "search"},
		{"callValue", `not json`, "callValue"},
		{"mcp_request", `{"server":"docs","method":"resources/read","params":{"uri":"memo://one"}}`, "resources/read"},
		{"mcp_request", `{"server":"docs","method":"tools/call","params":{}}`, "mcp_request"},
		{"mcp_request", `{"server":"nope","method":"resources/read","params":{}}`, "mcp_request"},
		{"mcp_request", `{"method":"resources/read","server":"docs"}`, "resources/read"},
		{"mcp", `{"server":"docs","name":"search_docs","input":{"query":"x"}}`, "search_docs"},
		{"mcp", `{"server":"docs","name":"nope","input":{}}`, "mcp"},
	} {
		if got := run.newRequest(bridge.Lookup(c.op), c.op, c.payload).name; got != c.want {
			t.Errorf("newRequest(%s, %s).name = %s, want %s", c.op, c.payload, got, c.want)
		}
	}
}
