package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/plugins/demo"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
	"github.com/seed11a79d2d/codemode/tool"
)

// docsClient connects the demo's in-process docs server (the tool
// search_docs, the resource memo://one, the prompt brief) through
// plugins/mcp, the way the command does.
func docsClient(t *testing.T) *mcp.Client {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := demo.NewDocsServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Start(context.Background(), &mcp.Options{Servers: map[string]mcp.ServerConfig{demo.DocsServerName: {Transport: ct}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		ss.Close()
	})
	return c
}

func docsRun(t *testing.T, src tool.Source, hooks tool.Hooks, policy host.Policy, opts host.RunOptions) *host.Run {
	t.Helper()
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Sources: []tool.Source{src}, Hooks: hooks, Policy: &policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	opts.Scope = tool.Scope{SessionKey: "sk", SessionID: "s", RunID: "r"}
	run, err := rt.Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// everyOperation calls the docs tool and the four operations, one after the
// other, and maps each to "ok" or its error message.
const everyOperation = `
	const out = {};
	const attempt = async (k, f) => { try { await f(); out[k] = "ok"; } catch (e) { out[k] = e.message; } };
	await attempt("tool", () => MCP.docs.searchDocs({query: "release"}));
	await attempt("resources.list", () => MCP.docs.resources.list());
	await attempt("resources.read", () => MCP.docs.resources.read({uri: "memo://one"}));
	await attempt("prompts.list", () => MCP.docs.prompts.list());
	await attempt("prompts.get", () => MCP.docs.prompts.get({name: "brief", arguments: {topic: "release"}}));
	return out;`

func execDocs(t *testing.T, run *host.Run, src string) (host.Result, map[string]string) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"code": src})
	r := run.Exec(context.Background(), "call_1", b)
	if r.Status != host.StatusCompleted {
		t.Fatalf("%+v", r)
	}
	var out map[string]string
	if err := json.Unmarshal(r.Value, &out); err != nil {
		t.Fatalf("%s: %v", r.Value, err)
	}
	return r, out
}

func refusal(id string) string { return "MCP operation " + id + " is not allowed in this run." }

// Allow and deny apply to resources and prompts by method, failing closed:
// an allow list that names only tools refuses every operation.
func TestMCPResourcesFollowAllowAndDeny(t *testing.T) {
	c := docsClient(t)
	for _, tc := range []struct {
		name        string
		allow, deny []string
		refused     []string
	}{
		{"no policy", nil, nil, nil},
		{"allow names one tool", []string{"search_docs"}, nil,
			[]string{"resources.list", "resources.read", "prompts.list", "prompts.get"}},
		{"allow names a tool and resources/read", []string{"search_docs", "resources/read"}, nil,
			[]string{"resources.list", "prompts.list", "prompts.get"}},
		{"deny names resources/read", nil, []string{"resources/read"}, []string{"resources.read"}},
		// An entry is a name or an exact id, for operations as for tools.
		{"ids name operations", []string{"search_docs", "mcp:docs:resources/read", "mcp:docs:prompts/get"}, []string{"mcp:docs:prompts/get"},
			[]string{"resources.list", "prompts.list", "prompts.get"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := docsRun(t, c, tool.Hooks{}, host.Policy{Allow: tc.allow, Deny: tc.deny}, host.RunOptions{})
			_, out := execDocs(t, run, everyOperation)
			for _, k := range []string{"tool", "resources.list", "resources.read", "prompts.list", "prompts.get"} {
				want := "ok"
				if slices.Contains(tc.refused, k) {
					want = refusal("mcp:docs:" + strings.Replace(k, ".", "/", 1))
				}
				if out[k] != want {
					t.Errorf("%s: got %q, want %q", k, out[k], want)
				}
			}
		})
	}
}

// countingSource counts the resource and prompt requests that reach the
// server.
type countingSource struct {
	*mcp.Client
	mu       sync.Mutex
	requests int
}

func (s *countingSource) MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	return s.Client.MCPRequest(ctx, server, method, params)
}

// A before-call hook that blocks every nested call sees each operation as
// one, with its method, and blocking it keeps it from the server.
func TestMCPResourcesPassBeforeHooks(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hooks := tool.Hooks{BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
		if e.ToolKind == tool.KindCodeModeExec {
			return tool.Decision{}
		}
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s %s %s %q %s", e.ToolKind, e.ToolName, e.ToolID, e.MCPMethod, e.Input))
		mu.Unlock()
		return tool.Decision{Block: true, Reason: "frozen"}
	}}
	src := countingSource{Client: docsClient(t)}
	run := docsRun(t, &src, hooks, host.Policy{}, host.RunOptions{})
	_, out := execDocs(t, run, everyOperation)
	if src.requests != 0 {
		t.Errorf("%d blocked requests reached the server", src.requests)
	}
	for k, id := range map[string]string{"tool": "mcp:docs:search_docs", "resources.list": "mcp:docs:resources/list",
		"resources.read": "mcp:docs:resources/read", "prompts.list": "mcp:docs:prompts/list", "prompts.get": "mcp:docs:prompts/get"} {
		if want := fmt.Sprintf("Tool %q was blocked before execution: frozen", id); out[k] != want {
			t.Errorf("%s: got %q, want %q", k, out[k], want)
		}
	}
	want := []string{
		`nested_tool search_docs mcp:docs:search_docs "" {"limit":3,"query":"release"}`,
		`nested_tool resources/list mcp:docs:resources/list "resources/list" {}`,
		`nested_tool resources/read mcp:docs:resources/read "resources/read" {"uri":"memo://one"}`,
		`nested_tool prompts/list mcp:docs:prompts/list "prompts/list" {}`,
		`nested_tool prompts/get mcp:docs:prompts/get "prompts/get" {"name":"brief","arguments":{"topic":"release"}}`,
	}
	if !slices.Equal(seen, want) {
		t.Fatalf("hook saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

// Operations are nested calls in the telemetry and the trajectory, with the
// nested call ids of tools; a refused one counts as a call but, like a
// denied tool, is not in the trajectory.
func TestMCPResourcesInTrajectoryAndCallCount(t *testing.T) {
	var mu sync.Mutex
	var calls []host.NestedCall
	var after []string
	hooks := tool.Hooks{AfterToolCall: func(ctx context.Context, e tool.Event, r tool.Result, err error) {
		mu.Lock()
		after = append(after, e.MCPMethod)
		mu.Unlock()
	}}
	run := docsRun(t, docsClient(t), hooks, host.Policy{Deny: []string{"prompts/get"}}, host.RunOptions{Trajectory: func(c host.NestedCall) {
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
	}})
	r, out := execDocs(t, run, everyOperation)
	if out["prompts.get"] != refusal("mcp:docs:prompts/get") || out["resources.read"] != "ok" {
		t.Fatalf("%v", out)
	}
	if r.Telemetry.CallCount != 5 {
		t.Errorf("callCount %d, want 5", r.Telemetry.CallCount)
	}
	var got []string
	for _, c := range calls {
		got = append(got, fmt.Sprintf("%s %s %s %s", c.ID, c.ParentCallID, c.ToolID, c.Method))
		if c.Error != "" {
			t.Errorf("%s failed: %s", c.ID, c.Error)
		}
	}
	want := []string{
		"tool_search_code:call_1:search_docs:1 call_1 mcp:docs:search_docs mcp",
		"tool_search_code:call_1:resources/list:2 call_1 mcp:docs:resources/list mcp_request",
		"tool_search_code:call_1:resources/read:3 call_1 mcp:docs:resources/read mcp_request",
		"tool_search_code:call_1:prompts/list:4 call_1 mcp:docs:prompts/list mcp_request",
	}
	if !slices.Equal(got, want) {
		t.Errorf("trajectory\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(after, []string{"", "resources/list", "resources/read", "prompts/list"}) {
		t.Errorf("after hooks saw %q", after)
	}
}

// The policy refuses operations by id and sends others through the
// approver, which sees the method.
func TestMCPResourcesPolicyAndApproval(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	hooks := tool.Hooks{Approve: func(ctx context.Context, e tool.Event) (bool, string, error) {
		mu.Lock()
		asked = append(asked, e.ToolID+" "+e.MCPMethod)
		mu.Unlock()
		return false, "ask a person", nil
	}}
	run := docsRun(t, docsClient(t), hooks, host.Policy{Deny: []string{"prompts/list", "mcp:docs:prompts/get"}, Approval: []string{"mcp:docs:resources/read"}}, host.RunOptions{})
	_, out := execDocs(t, run, everyOperation)
	want := map[string]string{
		"tool":           "ok",
		"resources.list": "ok",
		"resources.read": `Tool "mcp:docs:resources/read" was blocked before execution: ask a person`,
		"prompts.list":   refusal("mcp:docs:prompts/list"),
		"prompts.get":    refusal("mcp:docs:prompts/get"),
	}
	for k, w := range want {
		if out[k] != w {
			t.Errorf("%s: got %q, want %q", k, out[k], w)
		}
	}
	if !slices.Equal(asked, []string{"mcp:docs:resources/read resources/read"}) {
		t.Errorf("approver asked %q", asked)
	}
}

// oddSource serves a server whose tool list has a tool named like an
// operation.
type oddSource struct{ toolRan bool }

func (s *oddSource) Version() uint64 { return 0 }

func (s *oddSource) Tools() []tool.Tool {
	run := func(ctx context.Context, c tool.Call) (tool.Result, error) {
		s.toolRan = true
		return tool.Result{Details: "the tool"}, nil
	}
	return []tool.Tool{
		{Name: "resources/read", MCPServer: "odd", Execute: run},
		{Name: "ping", MCPServer: "odd", Execute: run},
	}
}

func (s *oddSource) MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error) {
	if server != "odd" {
		return nil, tool.ErrUnknownServer
	}
	return "the operation " + method, nil
}

// An MCP tool named like an operation would share its id: it is dropped, so
// allow, deny and hooks matching mcp:<server>:resources/read mean the
// operation only.
func TestMCPToolNamedLikeAnOperationIsDropped(t *testing.T) {
	src := &oddSource{}
	run := docsRun(t, src, tool.Hooks{}, host.Policy{}, host.RunOptions{})
	if _, ok := run.Catalog().Lookup("mcp:odd:resources/read"); ok {
		t.Fatal("the tool resources/read is catalogued")
	}
	b, _ := json.Marshal(map[string]string{"code": `return [Object.keys(MCP.odd).sort(), await MCP.odd.resources.read({})]`})
	r := run.Exec(context.Background(), "call_1", b)
	if string(r.Value) != `[["$api","ping","prompts","resources"],"the operation resources/read"]` || src.toolRan {
		t.Fatalf("%+v (tool ran: %v)", r, src.toolRan)
	}
}
