package main

import (
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
)

// The demo catalog includes the tracker plugin: its tools in the hidden
// catalog and its Issues namespace, with its prompt, in exec's description.
func TestDemoCatalogHasIssues(t *testing.T) {
	stdout, stderr, code := cli(t, "", "catalog")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Namespace Issues (also namespaces.Issues): An in-memory issue tracker",
		"Issues.update needs a person's approval, so it may return waiting; call wait to continue.",
		`- "openclaw:tracker:issues_update" { id: string; state?: "open" | "closed"; title?: string } -> { id: string; state: "open" | "closed"; title: string }`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("catalog output lacks %q", want)
		}
	}

	stdout, stderr, code = cli(t, "", "exec", "-e",
		`const open = await Issues.list({ state: "open" }); const one = await Issues.get("ISS-4");`+
			` return [open.map((i) => i.id), one.state, namespaces.Issues === Issues]`)
	if rs := results(t, stdout); code != 0 || len(rs) != 1 || string(rs[0].Value) != `[["ISS-1","ISS-2","ISS-3"],"closed",true]` {
		t.Errorf("exit %d, %s %s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "approval") {
		t.Errorf("reads asked for approval: %s", stderr)
	}
}

// Issues.update goes through the demo approver, which says so on stderr and
// grants the call; within exec's deadline the cell completes in one result.
func TestExecIssuesApproval(t *testing.T) {
	stdout, stderr, code := cli(t, "", "exec", "-e",
		`const i = await Issues.update("ISS-2", { title: "Build bot posts once" }); return [i.title, (await Issues.get("ISS-2")).title]`)
	rs := results(t, stdout)
	if code != 0 || len(rs) != 1 || string(rs[0].Value) != `["Build bot posts once","Build bot posts once"]` {
		t.Fatalf("exit %d, %s %s", code, stdout, stderr)
	}
	want := `codemode: approval requested for openclaw:tracker:issues_update {"id":"ISS-2","title":"Build bot posts once"}; the demo approver grants it in 300 ms`
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
}

// The tracker is a plugin switch of its own. Alone, with exec's deadline
// shorter than the approver's delay, a cell that waits for approval returns
// waiting at the deadline and the command's wait completes it.
func TestExecConfigTracker(t *testing.T) {
	cfg := writeFile(t, "tracker.json5", `{tools: {codeMode: {enabled: true, timeoutMs: 100}}, plugins: {tracker: true}}`)
	stdout, stderr, code := cli(t, "", "exec", "--config", cfg, "-e",
		`const ids = ALL_TOOLS.map((t) => t.id).sort(); const i = await Issues.update("ISS-3", { state: "closed" }); return [ids, i.state]`)
	rs := results(t, stdout)
	if code != 0 || len(rs) < 2 || rs[0].Status != host.StatusWaiting || rs[len(rs)-1].Status != host.StatusCompleted {
		t.Fatalf("exit %d, %s %s", code, stdout, stderr)
	}
	if got := string(rs[len(rs)-1].Value); got != `[["openclaw:tracker:issues_get","openclaw:tracker:issues_list","openclaw:tracker:issues_update"],"closed"]` {
		t.Errorf("value = %s", got)
	}
	if !strings.Contains(stderr, "approval requested for openclaw:tracker:issues_update") {
		t.Errorf("stderr %q", stderr)
	}

	// Off unless named: the demo alone has no Issues.
	demoOnly := writeFile(t, "demo.json5", `{tools: {codeMode: true}, plugins: {demo: true}}`)
	stdout, _, code = cli(t, "", "exec", "--config", demoOnly, "-e",
		`return [typeof Issues, ALL_TOOLS.some((t) => t.id.startsWith("openclaw:tracker:"))]`)
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != `["undefined",false]` {
		t.Errorf("demo only: exit %d, %s", code, stdout)
	}
}
