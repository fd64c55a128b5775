package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

// toolSearchConfig is corpusConfig for Tool Search: the same bounds, and no
// snapshot keys, which Tool Search ignores.
const toolSearchConfig = `{"enabled": true, "timeoutMs": 2000, "memoryLimitBytes": 8388608,
	"maxOutputBytes": 8192, "maxPendingToolCalls": 16}`

func toolSearchRuntime(t *testing.T, w *world) *host.Runtime {
	t.Helper()
	return newWorldRuntime(t, w, &host.Options{Sources: w.startMCP(t), ToolSearch: hosttest.ToolSearch(json.RawMessage(toolSearchConfig))})
}

// TestToolSearchHostileCorpus runs every hostile cell as a tool_search_code
// body. Their expected outcomes are code mode's, so what is checked is what
// holds in both: no body parks (there is no wait), every result encodes, no
// unreachable tool runs, and the host is healthy afterwards.
func TestToolSearchHostileCorpus(t *testing.T) {
	w := newWorld(t)
	rt := toolSearchRuntime(t, w)
	sem := make(chan struct{}, 8)
	t.Run("cells", func(t *testing.T) {
		for _, c := range loadCorpus(t) {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				run := prepare(t, rt, tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s-" + c.name, RunID: "r-" + c.name})
				r := run.ToolSearchCode(context.Background(), "call_"+c.name, c.args())
				if r.Status == host.StatusWaiting || r.RunID != "" {
					t.Errorf("a tool_search_code body parked: %s", describe(r))
					run.Abort()
				}
				if _, err := json.Marshal(r); err != nil {
					t.Errorf("result does not encode: %v", err)
				}
			})
		}
	})
	if n := w.secretHits.Load(); n != 0 {
		t.Errorf("unreachable tools ran %d times", n)
	}
	run := prepare(t, rt, testScope)
	if r := run.ToolSearchCode(context.Background(), "after", execArgs("return 'healthy'")); string(r.Value) != `"healthy"` {
		t.Fatalf("host unhealthy after the corpus: %s", describe(r))
	}
}

// TestToolSearchHostileRequests are the structured controls' attacks: every
// way to reach a tool that policy refuses, a control, or the host's limits
// through tool_search, tool_describe and tool_call, in sequence and all at
// once. None reaches a tool it must not, and each gets a clear error.
func TestToolSearchHostileRequests(t *testing.T) {
	w := newWorld(t)
	rt := toolSearchRuntime(t, w)
	run := prepare(t, rt, testScope)
	deep := strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat(`}`, 20000)
	attacks := []struct{ tool, args, want string }{
		{"tool_call", `{"id":"admin_reset"}`, "Unknown tool id: admin_reset."},
		{"tool_call", `{"id":"openclaw:tracker:admin_reset"}`, "Unknown tool id"},
		{"tool_describe", `{"id":"admin_reset"}`, "Unknown tool id"},
		{"tool_call", `{"id":"guarded","input":{}}`, "the corpus's person declines"},
		{"tool_call", `{"id":"mcp:docs:drop_table","input":{}}`, "the corpus's person declines"},
		{"tool_call", `{"id":"drop_table"}`, "the corpus's person declines"},
		{"tool_call", `{"id":"screenshot"}`, "Unknown tool id"}, // direct-only: visible, never catalogued
		{"tool_call", `{"id":"exec","input":{"code":"while(1){}"}}`, "Unknown tool id: exec."},
		{"tool_call", `{"id":"wait","input":{"runId":"x"}}`, "Unknown tool id: wait."},
		{"tool_call", `{"id":"tool_search_code","input":{"code":"1"}}`, "Unknown tool id"},
		{"tool_call", `{"id":"tool_call","input":{"id":"admin_reset"}}`, "Unknown tool id"},
		{"tool_call", `{"id":"prompts/get","input":{"name":"secret"}}`, "Unknown tool id"},
		{"tool_call", `{"id":"mcp:docs:prompts/get"}`, "Unknown tool id"},
		{"tool_call", `{"id":"` + strings.Repeat("é", 100000) + `"}`, "Unknown tool id"},
		{"tool_call", `{"id":"echo","input":` + deep + `}`, "takes one JSON object"},
		{"tool_call", `{"id":"echo","input":{"x":1},"id2":"admin_reset"}`, `has no argument "id2"`},
		{"tool_call", `{"id":["admin_reset"]}`, "id must be a string."},
		{"tool_search", `{"query":"` + strings.Repeat("a b ", 50000) + `","limit":1e308}`, ""},
		{"tool_search", `{"query":"admin reset"}`, ""},
		{"tool_search", `{"query":"x","limit":-1}`, "limit must be a positive integer."},
	}
	check := func(t *testing.T, tool, args, want string) {
		res, err := run.CallDirect(context.Background(), "call_attack", tool, json.RawMessage(args))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s %.80s: %v", tool, args, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s %.80s: %v, want %q", tool, args, err, want)
		case tool == "tool_search" && err == nil:
			if b, _ := json.Marshal(res.Details); strings.Contains(string(b), "admin_reset") || strings.Contains(string(b), "screenshot") {
				t.Errorf("search shows a tool it must not: %s", b)
			}
		}
		if err != nil && len(err.Error()) > 4096 {
			t.Errorf("%s: a %d-byte error echoes its input", tool, len(err.Error()))
		}
	}
	for _, a := range attacks {
		check(t, a.tool, a.args, a.want)
	}
	var wg sync.WaitGroup
	for i := range 200 {
		a := attacks[i%len(attacks)]
		wg.Go(func() { check(t, a.tool, a.args, a.want) })
	}
	wg.Wait()
	if n := w.secretHits.Load(); n != 0 {
		t.Errorf("unreachable tools ran %d times", n)
	}
	res, err := run.CallDirect(context.Background(), "after", "tool_call", json.RawMessage(`{"id":"count"}`))
	if err != nil || fmt.Sprint(res.Details) != "1" {
		t.Fatalf("host unhealthy after the attacks: %v %v", err, res.Details)
	}
}
