package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/tool"
)

// issuesPlugin registers two tools of plugin "tracker" and returns them.
func trackerTools(gate *gate) []tool.Tool {
	list := tool.Tool{Name: "issues_list", Plugin: "tracker", ReplaySafe: true, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: map[string]any{"input": json.RawMessage(c.Input), "issues": []string{"#1", "#2"}}}, nil
	}}
	update := tool.Tool{Name: "issues_update", Plugin: "tracker", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		if strings.Contains(string(c.Input), "fail") {
			return tool.Result{}, context.Canceled
		}
		if gate != nil {
			<-gate.release
		}
		return tool.Result{Details: map[string]any{"updated": json.RawMessage(c.Input)}}, nil
	}}
	return []tool.Tool{list, update}
}

func issuesNamespace(extra map[string]any) tool.Namespace {
	return tool.Namespace{
		ID: "tracker.issues", GlobalName: "Issues", Description: "In-memory issue tracker.",
		Prompt: "Use Issues.list() before Issues.update().", RequiredToolNames: []string{"issues_list", "issues_update"},
		CreateScope: func(ctx context.Context, nc tool.NamespaceContext) (any, error) {
			shared := map[string]any{"labels": []any{"bug", "ux"}}
			scope := map[string]any{
				"list": tool.NamespaceTool("issues_list", nil),
				"update": tool.NamespaceTool("issues_update", func(args []json.RawMessage) (json.RawMessage, error) {
					return json.Marshal(map[string]any{"id": args[0], "patch": args[1]})
				}),
				"meta":  map[string]any{"a": shared, "b": shared, "session": nc.Scope.SessionID, "limits": []any{1, 2.5, nil, true}},
				"stats": struct{ Open int }{3},
			}
			for k, v := range extra {
				scope[k] = v
			}
			return scope, nil
		},
	}
}

func namespaceRuntime(t *testing.T, config string, tools []tool.Tool, ns tool.Namespace) *Runtime {
	t.Helper()
	rt := newRuntime(t, config, tools...)
	if err := rt.RegisterNamespace("tracker", ns); err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestNamespacePromptAppearsOnlyWhenBackingToolsAreVisible(t *testing.T) {
	rt := namespaceRuntime(t, `true`, append(trackerTools(nil), shipments()), issuesNamespace(nil))
	if d := prepare(t, rt, RunOptions{}).Tools()[0].Description; !strings.Contains(d, "Use Issues.list() before Issues.update().") {
		t.Fatalf("visible namespace prompt missing:\n%s", d)
	}
	denied := newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Tools: append(trackerTools(nil), shipments()), Policy: &Policy{Deny: []string{"issues_update"}}})
	if err := denied.RegisterNamespace("tracker", issuesNamespace(nil)); err != nil {
		t.Fatal(err)
	}
	run := prepare(t, denied, RunOptions{})
	if strings.Contains(run.Tools()[0].Description, "Issues") {
		t.Fatal("prompt shown without its backing tools")
	}
	if r := exec(t, run, "return [typeof Issues, Object.keys(namespaces)]"); string(r.Value) != `["undefined",[]]` {
		t.Fatalf("%+v", r)
	}
}

func TestNamespaceHiddenForSameNamedToolsOfAnotherOwner(t *testing.T) {
	tools := trackerTools(nil)
	for i := range tools {
		tools[i].Plugin = "impostor"
	}
	rt := namespaceRuntime(t, `true`, tools, issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{})
	if r := exec(t, run, "return typeof Issues"); string(r.Value) != `"undefined"` {
		t.Fatalf("%+v", r)
	}
}

func TestNamespaceRawScopeFunctionsAreRejected(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(map[string]any{"raw": func() {}}))
	r := exec(t, prepare(t, rt, RunOptions{}), "return 1")
	if r.Status != StatusFailed || !strings.Contains(r.Error, `scope at "raw" is a raw function`) {
		t.Fatalf("%+v", r)
	}
}

func TestNamespaceScopeSerialization(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for name, tc := range map[string]struct {
		extra map[string]any
		want  string
	}{
		"cycle":       {map[string]any{"loop": cyclic}, "Circular code mode namespace scope at loop.self"},
		"proto key":   {map[string]any{"x": map[string]any{"__proto__": 1}}, "Invalid code mode namespace path segment"},
		"dotted key":  {map[string]any{"a.b": 1}, "Invalid code mode namespace path segment"},
		"empty key":   {map[string]any{"": 1}, "Invalid code mode namespace path segment"},
		"constructor": {map[string]any{"constructor": 1}, "Invalid code mode namespace path segment"},
	} {
		rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(tc.extra))
		if r := exec(t, prepare(t, rt, RunOptions{}), "return 1"); !strings.Contains(r.Error, tc.want) {
			t.Errorf("%s: %+v", name, r)
		}
	}
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	r := exec(t, prepare(t, rt, RunOptions{}), `return [Issues.meta, namespaces.Issues === Issues, Issues.stats, Object.isFrozen(Issues)]`)
	if string(r.Value) != `[{"a":{"labels":["bug","ux"]},"b":{"labels":["bug","ux"]},"limits":[1,2.5,null,true],"session":"s1"},true,{"Open":3},true]` {
		t.Fatalf("%s %s", r.Value, r.Error)
	}
}

func TestNamespaceRegistrationChecks(t *testing.T) {
	rt := newRuntime(t, `true`, trackerTools(nil)...)
	ns := issuesNamespace(nil)
	for name, mutate := range map[string]func(*tool.Namespace){
		"not identifier": func(n *tool.Namespace) { n.GlobalName = "my-issues" },
		"reserved":       func(n *tool.Namespace) { n.GlobalName = "tools" },
		"builtin":        func(n *tool.Namespace) { n.GlobalName = "JSON" },
		"internal":       func(n *tool.Namespace) { n.GlobalName = "__cm_bridge" },
		"no tools":       func(n *tool.Namespace) { n.RequiredToolNames = nil },
	} {
		bad := ns
		mutate(&bad)
		if err := rt.RegisterNamespace("tracker", bad); err == nil {
			t.Errorf("%s: registered", name)
		}
	}
	if err := rt.RegisterNamespace("tracker", ns); err != nil {
		t.Fatal(err)
	}
	if err := rt.RegisterNamespace("other", ns); err == nil {
		t.Fatal("duplicate id registered")
	}
}

func TestNamespaceCallsRunThroughCatalogTools(t *testing.T) {
	var calls []NestedCall
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{Trajectory: func(c NestedCall) { calls = append(calls, c) }})
	r := exec(t, run, `
		const listed = await Issues.list({state: "open"});
		const updated = await namespaces.Issues.update("#1", {state: "closed"});
		let failure;
		try { await Issues.update("fail", {}) } catch (e) { failure = e instanceof Error && e.message }
		return [listed, updated, failure];`)
	if string(r.Value) != `[{"input":{"state":"open"},"issues":["#1","#2"]},{"updated":{"id":"#1","patch":{"state":"closed"}}},"context canceled"]` {
		t.Fatalf("%s %s", r.Value, r.Error)
	}
	if len(calls) != 3 || calls[0].ToolID != "openclaw:tracker:issues_list" || calls[1].ToolID != "openclaw:tracker:issues_update" {
		t.Fatalf("%+v", calls)
	}
}

func TestNamespaceForgedIDsAndPathsAreRejected(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(map[string]any{
		"sneaky": tool.NamespaceTool("shipping_list", nil), // not a required tool
	}))
	run := prepare(t, rt, RunOptions{})
	st := run.newState("c")
	defer st.cancel()
	ns, _, err := run.createNamespaces(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st.namespaces = ns
	pc := &pendingCall{id: "x", method: "namespace"}
	for payload, want := range map[string]string{
		`{"id":"forged","path":"list","args":[]}`:           "Unknown code mode namespace: forged",
		`{"id":"tracker.issues","path":"meta","args":[]}`:   "Code mode namespace path is not callable: meta",
		`{"id":"tracker.issues","path":"nope","args":[]}`:   "Code mode namespace path is not callable: nope",
		`{"id":"tracker.issues","path":"sneaky","args":[]}`: "Code mode namespace path targets undeclared tool: shipping_list",
	} {
		if _, err := run.callNamespace(context.Background(), st, pc, []byte(payload)); err == nil || err.Error() != want {
			t.Errorf("%s: %v", payload, err)
		}
	}
}

func TestSuspendedNamespaceCallsResumeThroughWait(t *testing.T) {
	g := newGate()
	defer g.open()
	rt := namespaceRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), trackerTools(g), issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `return await Issues.update("#2", {state: "done"})`)
	if r.Status != StatusWaiting {
		t.Fatalf("%+v", r)
	}
	g.open()
	if w := run.Wait(context.Background(), waitArgs(r.RunID)); string(w.Value) != `{"updated":{"id":"#2","patch":{"state":"done"}}}` {
		t.Fatalf("%+v", w)
	}
}

func TestPluginRollbackClearsItsNamespaces(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	rt.ClearNamespaces("tracker")
	if r := exec(t, prepare(t, rt, RunOptions{}), "return typeof Issues"); string(r.Value) != `"undefined"` {
		t.Fatalf("%+v", r)
	}
}

// TestRollbackReachesPreparedRuns: a plugin rolled back while a run is
// prepared loses its namespace from that run's next exec: neither the global
// nor the namespaces member is there.
func TestRollbackReachesPreparedRuns(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{})
	if r := exec(t, run, "return [typeof Issues, Object.keys(namespaces)]"); string(r.Value) != `["object",["Issues"]]` {
		t.Fatalf("before rollback: %+v", r)
	}
	rt.ClearNamespaces("tracker")
	if r := exec(t, run, "return [typeof Issues, Object.keys(namespaces)]"); string(r.Value) != `["undefined",[]]` {
		t.Fatalf("after rollback: %+v", r)
	}
}

func TestRestartSafeRefusesNamespaceCalls(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{})
	r := run.Exec(context.Background(), "c", json.RawMessage(`{"code":"return await Issues.list({})","restartSafe":true}`))
	if r.Error != msgRestartSafeNamespace {
		t.Fatalf("%+v", r)
	}
}
