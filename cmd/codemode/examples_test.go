package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
)

// example runs one program of examples/ on the demo catalog.
func example(t *testing.T, name string, flags ...string) []host.Result {
	t.Helper()
	args := append([]string{"exec"}, flags...)
	args = append(args, filepath.Join("..", "..", "examples", name))
	stdout, stderr, code := cli(t, "", args...)
	rs := results(t, stdout)
	if last := rs[len(rs)-1]; (code == 0) != (last.Status != host.StatusFailed) {
		t.Errorf("exit %d after a %s result", code, last.Status)
	}
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
	}
	return rs
}

func value(t *testing.T, r host.Result) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Value, &v); err != nil {
		t.Fatalf("value %s: %v", r.Value, err)
	}
	return v
}

func outputText(r host.Result) string {
	var b strings.Builder
	for _, o := range r.Output {
		b.WriteString(o.Text)
	}
	return b.String()
}

func TestExampleQuickstart(t *testing.T) {
	rs := example(t, "quickstart.ts")
	if len(rs) != 1 || rs[0].Status != host.StatusCompleted {
		t.Fatalf("results = %+v", rs)
	}
	want := []any{"SHP-102", "SHP-103", "SHP-105", "SHP-107", "SHP-110", "SHP-111"}
	if got := value(t, rs[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("value = %v, want %v", got, want)
	}
	if got := outputText(rs[0]); got != "openclaw:demo:shipping_list: 6 of 12 shipments are unpaid and over 10 t (121.25 t in all)." {
		t.Errorf("text = %q", got)
	}
	if tm := rs[0].Telemetry; tm.SearchCount != 1 || tm.CallCount != 1 {
		t.Errorf("telemetry = %+v", tm)
	}
}

func TestExampleParallel(t *testing.T) {
	rs := example(t, "parallel.js")
	want := map[string]any{"unpaid": 8.0, "sentTo": "Build bot", "messageId": "msg_1", "echo": "pong",
		"failure": "always_fail: this demo tool always fails"}
	if got := value(t, rs[0]); len(rs) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("value = %v, want %v", got, want)
	}
	if n := rs[0].Telemetry.CallCount; n != 5 {
		t.Errorf("%d nested calls, want 5", n)
	}
}

func TestExampleWait(t *testing.T) {
	rs := example(t, "wait.js")
	if len(rs) != 2 || rs[0].Status != host.StatusWaiting || rs[0].RunID == "" || rs[1].Status != host.StatusCompleted {
		t.Fatalf("results = %+v", rs)
	}
	if got := outputText(rs[0]); got != "slow_echo started; yielding to the model" {
		t.Errorf("first output = %q", got)
	}
	if got := outputText(rs[1]); got != "resumed after wait; slow_echo slept 300 ms" {
		t.Errorf("output after wait = %q", got)
	}
	if got := value(t, rs[1]); got != "slow result" {
		t.Errorf("value = %v", got)
	}

	rs = example(t, "wait.js", "--once")
	if len(rs) != 1 || rs[0].Status != host.StatusWaiting {
		t.Errorf("--once results = %+v", rs)
	}
}

func TestExampleMCP(t *testing.T) {
	rs := example(t, "mcp.js")
	want := map[string]any{
		"files":              []any{"mcp/index.d.ts", "mcp/docs.d.ts"},
		"declaresSearchDocs": true,
		"pages":              []any{"release"},
		"memo":               "Release memo: version 1.4 ships on Friday. Freeze merges on Thursday at noon.",
		"brief":              "Write a three-line brief on release for the team, using the handbook.",
	}
	if got := value(t, rs[0]); len(rs) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("value = %v\nwant %v", got, want)
	}
}

func TestExampleIssues(t *testing.T) {
	rs := example(t, "issues.js")
	if len(rs) != 2 || rs[0].Status != host.StatusWaiting || rs[1].Status != host.StatusCompleted {
		t.Fatalf("results = %+v", rs)
	}
	if got := outputText(rs[0]); got != "3 open issues; asked to close ISS-1" {
		t.Errorf("first output = %q", got)
	}
	if got := outputText(rs[1]); got != "approved: ISS-1 is closed; 2 open issues left" {
		t.Errorf("output after wait = %q", got)
	}
	want := map[string]any{"closed": "ISS-1", "open": []any{"ISS-2", "ISS-3"}}
	if got := value(t, rs[1]); !reflect.DeepEqual(got, want) {
		t.Errorf("value = %v, want %v", got, want)
	}

	// --once ends the process with the approval still pending: the
	// approver's goroutine must end with it (goleak checks).
	rs = example(t, "issues.js", "--once")
	if len(rs) != 1 || rs[0].Status != host.StatusWaiting {
		t.Errorf("--once results = %+v", rs)
	}
}

// examples/approval.js under exec: no one to ask, so the call is refused
// with the reason (TestServeApprovalThroughElicitation runs it under serve).
func TestExampleApproval(t *testing.T) {
	rs := example(t, "approval.js", "--config", filepath.Join("..", "..", "examples", "approval.json5"))
	v, _ := value(t, rs[len(rs)-1]).(map[string]any)
	if v["approved"] != false || !strings.Contains(v["why"].(string), "codemode exec has no one to ask") {
		t.Fatalf("value %v", v)
	}
}

func TestExampleToolSearch(t *testing.T) {
	rs := example(t, "toolsearch.js", "--config", filepath.Join("..", "..", "examples", "toolsearch.json5"))
	if len(rs) != 1 || rs[0].Status != host.StatusCompleted {
		t.Fatalf("results = %+v", rs)
	}
	v := value(t, rs[0]).(map[string]any)
	if v["handbook"] != "mcp:docs:search_docs" || v["found"] != true || len(v["unpaid"].([]any)) != 8 {
		t.Errorf("value = %v", v)
	}
	if got := rs[0].Telemetry.VisibleTools; !reflect.DeepEqual(got, []string{"tool_search_code", "tool_search", "tool_describe", "tool_call", "chart_image"}) {
		t.Errorf("visible = %v", got)
	}
}

// examples/swarm.js under exec: the demo agent answers every child.
func TestExampleSwarm(t *testing.T) {
	rs := example(t, "swarm.js")
	want := map[string]any{
		"reviews": []any{"SHP-107: Check shipment SHP-107 (31 t) for payment risk.",
			"SHP-111: Check shipment SHP-111 (26.75 t) for payment risk.", "SHP-105: Check shipment SHP-105 (22 t) for payment risk."},
		"decision": map[string]any{"chase": false, "reason": "demo"},
		"failure":  "SwarmAgentError",
	}
	if got := value(t, rs[0]); len(rs) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("value = %v\nwant %v", got, want)
	}
}
