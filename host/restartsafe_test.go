package host

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/seed11a79d2d/codemode/tool"
)

// restartSafe is the exec input of a restart-safe cell.
func restartSafe(src string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"code": src, "restartSafe": true})
	return b
}

// untilSettled waits on a run until it stops waiting.
func untilSettled(run *Run, r Result) Result {
	for r.Status == StatusWaiting {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	return r
}

// TestAuditedCoreToolsAreReplaySafe: a core tool whose name is on the
// audited read-only list may run in a restart-safe cell without being marked
// ReplaySafe. A plugin or client tool of the same name, or a core tool off
// the list, still may not.
func TestAuditedCoreToolsAreReplaySafe(t *testing.T) {
	ran := map[string]int{}
	mkTool := func(name, plugin string) tool.Tool {
		return tool.Tool{Name: name, Plugin: plugin, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			ran[plugin+"/"+name]++
			return tool.Result{Details: name}, nil
		}}
	}
	rt := newRuntime(t, `true`, mkTool("read", ""), mkTool("web_fetch", ""), mkTool("write", ""), mkTool("grep", "files"))
	client := mkTool("ls", "")
	run := prepare(t, rt, RunOptions{ClientTools: []tool.Tool{client}})

	r := untilSettled(run, run.Exec(context.Background(), "c1", restartSafe(
		`return [await tools.callValue("openclaw:core:read", {}), await tools.callValue("openclaw:core:web_fetch", {})]`)))
	if r.Status != StatusCompleted || string(r.Value) != `["read","web_fetch"]` || !r.ReplaySafe {
		t.Fatalf("audited core tools refused: %+v", r)
	}
	for _, id := range []string{"openclaw:core:write", "openclaw:files:grep", "client:client:ls"} {
		r := untilSettled(run, run.Exec(context.Background(), "c2", restartSafe(`return await tools.callValue("`+id+`", {})`)))
		if r.Status != StatusFailed || r.Error != msgRestartSafeSideEffect {
			t.Errorf("%s: %+v", id, r)
		}
	}
	if ran["/write"]+ran["files/grep"]+ran["/ls"] != 0 || ran["/read"] != 1 {
		t.Fatalf("ran %v", ran)
	}
}

// TestRestartSafeNamespaceRefusal: a restart-safe cell whose every pending
// request is a plugin namespace call fails with the namespace message; when
// anything else is pending beside it (a look-up, a yield, a timer, a
// replay-safe call) the namespace call is refused as a side effect.
func TestRestartSafeNamespaceRefusal(t *testing.T) {
	rt := namespaceRuntime(t, `true`, trackerTools(nil), issuesNamespace(nil))
	run := prepare(t, rt, RunOptions{})
	for _, c := range []struct{ src, want string }{
		{`return await Issues.list({})`, msgRestartSafeNamespace},
		{`return await Promise.all([Issues.list({}), Issues.update("#1", {state: "done"})])`, msgRestartSafeNamespace},
		{`return await Promise.all([Issues.list({}), tools.search("issues")])`, msgRestartSafeSideEffect},
		{`return await Promise.all([Issues.list({}), yield_control("later")])`, msgRestartSafeSideEffect},
		{`setTimeout(() => {}, 5); return await Issues.list({})`, msgRestartSafeSideEffect},
		{`return await Promise.all([Issues.list({}), tools.issues_list({})])`, msgRestartSafeSideEffect},
	} {
		r := untilSettled(run, run.Exec(context.Background(), "c", restartSafe(c.src)))
		if r.Status != StatusFailed || r.Error != c.want || r.Code != "invalid_input" {
			t.Errorf("%s: %+v", c.src, r)
		}
	}
}
