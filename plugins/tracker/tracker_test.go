package tracker

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

// setup builds a runtime with the tracker as a source, its namespace, and an
// approver that answers from a channel.
func setup(t *testing.T, config string, hooks tool.Hooks) (*Tracker, *host.Run) {
	t.Helper()
	tr := New(Issue{"T-1", "Crash on start", "open"}, Issue{"T-2", "Typo in docs", "open"}, Issue{"T-3", "Old bug", "closed"})
	rt, err := host.New(context.Background(), &host.Options{CodeMode: hosttest.CodeMode(json.RawMessage(config)), Sources: []tool.Source{tr}, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	if err := tr.Register(rt); err != nil {
		t.Fatal(err)
	}
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{AgentID: "a", SessionID: "s", RunID: "r"}})
	if err != nil {
		t.Fatal(err)
	}
	return tr, run
}

func execCode(run *host.Run, code string, restartSafe bool) host.Result {
	b, _ := json.Marshal(map[string]any{"code": code, "restartSafe": restartSafe})
	return run.Exec(context.Background(), "call_1", b)
}

func waitFor(run *host.Run, r host.Result) host.Result {
	b, _ := json.Marshal(map[string]string{"runId": r.RunID})
	return run.Wait(context.Background(), b)
}

func approveAll(context.Context, tool.Event) (bool, string, error) { return true, "", nil }

func TestNamespaceEndToEnd(t *testing.T) {
	tr, run := setup(t, `true`, tool.Hooks{Approve: approveAll})
	desc := run.Tools()[0].Description
	if !strings.Contains(desc, "Issues.update needs a person's approval") ||
		!strings.Contains(desc, `- "openclaw:tracker:issues_list" { state?: "open" | "closed" } -> Array<{ id: string; state: "open" | "closed"; title: string }>`) {
		t.Fatalf("exec description:\n%s", desc)
	}
	r := execCode(run, `
		const open = await Issues.list({ state: "open" });
		const crash = open.find((i) => i.title.startsWith("Crash"));
		const closed = await Issues.update(crash.id, { state: "closed" });
		return { open: open.length, closed, states: Issues.states };`, false)
	if string(r.Value) != `{"open":2,"closed":{"id":"T-1","title":"Crash on start","state":"closed"},"states":["open","closed"]}` {
		t.Fatalf("%+v", r)
	}
	if tr.issues[0].State != "closed" {
		t.Fatal("the update did not reach the tracker")
	}
}

func TestBlockedCall(t *testing.T) {
	hooks := tool.Hooks{
		Approve: approveAll,
		BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
			return tool.Decision{Block: e.ToolName == "issues_update" && strings.Contains(string(e.Input), "T-3"), Reason: "T-3 is archived"}
		},
	}
	tr, run := setup(t, `true`, hooks)
	r := execCode(run, `try { await Issues.update("T-3", { state: "open" }); return "reopened" } catch (e) { return e.message }`, false)
	if string(r.Value) != `"Tool \"openclaw:tracker:issues_update\" was blocked before execution: T-3 is archived"` || tr.issues[2].State != "closed" {
		t.Fatalf("%+v", r)
	}
}

func TestApprovalAfterExecReturnedWaiting(t *testing.T) {
	decisions := make(chan bool, 1)
	hooks := tool.Hooks{Approve: func(ctx context.Context, e tool.Event) (bool, string, error) {
		select {
		case ok := <-decisions:
			return ok, "not now", nil
		case <-ctx.Done():
			return false, "", ctx.Err()
		}
	}}
	// The exec parks at its deadline with the approval pending: 2 s of room
	// for the cell to ask for it, on a loaded machine too.
	tr, run := setup(t, `{"enabled": true, "timeoutMs": 2000}`, hooks)
	r := execCode(run, `text("asking"); const i = await Issues.update("T-2", { title: "Typo in README" }); text("approved"); return i.title`, false)
	if r.Status != host.StatusWaiting || tr.issues[1].Title != "Typo in docs" {
		t.Fatalf("%+v", r)
	}
	decisions <- true
	w := waitFor(run, r)
	if w.Status != host.StatusCompleted || string(w.Value) != `"Typo in README"` || len(w.Output) != 1 || w.Output[0].Text != "approved" {
		t.Fatalf("%+v", w)
	}
}

func TestRestartSafeCellRefusedBeforeSideEffect(t *testing.T) {
	tr, run := setup(t, `true`, tool.Hooks{Approve: approveAll})
	r := execCode(run, `return await tools.callValue("openclaw:tracker:issues_update", { id: "T-1", state: "closed" })`, true)
	for r.Status == host.StatusWaiting {
		r = waitFor(run, r)
	}
	if r.Error != "restart-safe code mode cannot call side-effecting tools." || tr.issues[0].State != "open" {
		t.Fatalf("%+v", r)
	}
	r = execCode(run, `return (await tools.callValue("openclaw:tracker:issues_list", {})).length`, true)
	for r.Status == host.StatusWaiting {
		r = waitFor(run, r)
	}
	if string(r.Value) != "3" || !r.ReplaySafe {
		t.Fatalf("replay-safe read refused: %+v", r)
	}
}
