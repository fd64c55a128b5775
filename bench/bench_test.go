package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

// One body per metric of [Metrics]; the sub-benchmark picks the engine.

// hostCalls is the loop length of host_call, as in the Node harness.
const hostCalls = 10000

// bridgeNames gives cells and templates the Node harness's host function
// names on top of the engine bridge.
const bridgeNames = "const hostRequest = __cm_bridge.request, hostEmit = __cm_bridge.emit;\n"

var ctx = context.Background()

func newCell(b *testing.B, e abi.Engine, h abi.Host) abi.Cell {
	c, err := e.NewCell(ctx, abi.Limits{}, h)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func BenchmarkCellStart(b *testing.B) {
	forEngines(b, needs{}, "", func(b *testing.B, e abi.Engine) {
		h := &benchHost{}
		for b.Loop() {
			newCell(b, e, h).Close(ctx)
		}
	})
}

func BenchmarkEvalSmall(b *testing.B) {
	forEngines(b, needs{}, "", func(b *testing.B, e abi.Engine) {
		h := &benchHost{}
		for b.Loop() {
			c := newCell(b, e, h)
			if s := c.Run(ctx, "let s = 0; for (let i = 0; i < 100; i++) s += i; return s", "cell.js"); s.Value != "4950" {
				b.Fatal(s)
			}
			c.Close(ctx)
		}
	})
}

func BenchmarkHostCall(b *testing.B) {
	src := bridgeNames + "for (let i = 0; i < " + strconv.Itoa(hostCalls) + "; i++) hostEmit(\"text\", \"x\"); return 1"
	forEngines(b, needs{}, "", func(b *testing.B, e abi.Engine) {
		h := &benchHost{}
		start := time.Now()
		for b.Loop() {
			c := newCell(b, e, h)
			if s := c.Run(ctx, src, "cell.js"); s.Value != "1" {
				b.Fatal(s)
			}
			c.Close(ctx)
		}
		b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*hostCalls), "ns/call")
	})
}

func BenchmarkHostRoundTrip(b *testing.B) {
	src := bridgeNames + "let n = 0; for (;;) n += await hostRequest(\"x\", \"\");"
	forEngines(b, needs{}, "", func(b *testing.B, e abi.Engine) {
		h := &benchHost{}
		c := newCell(b, e, h)
		defer c.Close(ctx)
		if s := c.Run(ctx, src, "cell.js"); s.Status != abi.StepPending {
			b.Fatal(s)
		}
		for b.Loop() {
			if s := c.Settle(ctx, h.next, abi.Resolve("1")); s.Status != abi.StepPending {
				b.Fatal(s)
			}
		}
	})
}

// suspended returns a cell waiting on the two requests of two_tickets.js.
func suspended(b *testing.B, e abi.Engine) abi.Cell {
	c := newCell(b, e, &benchHost{})
	if s := c.Run(ctx, bridgeNames+TwoTicketsJS, "cell.js"); s.Status != abi.StepPending {
		b.Fatal(s)
	}
	return c
}

func BenchmarkSnapshot(b *testing.B) {
	forEngines(b, needs{snapshot: true}, "", func(b *testing.B, e abi.Engine) {
		c := suspended(b, e)
		defer c.Close(ctx)
		var img []byte
		for b.Loop() {
			var err error
			if img, err = c.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(img)), "bytes/snapshot")
	})
}

func BenchmarkRestore(b *testing.B) {
	forEngines(b, needs{snapshot: true}, "", func(b *testing.B, e abi.Engine) {
		c := suspended(b, e)
		img, err := c.Snapshot(ctx)
		c.Close(ctx)
		if err != nil {
			b.Fatal(err)
		}
		// The image is live: the restored cell finishes the run.
		h := &benchHost{}
		r, err := e.Restore(ctx, img, abi.Limits{}, h)
		if err != nil {
			b.Fatal(err)
		}
		r.Settle(ctx, 1, abi.Resolve(`{"n":4}`))
		if s := r.Settle(ctx, 2, abi.Resolve(`{"n":2}`)); s.Value != "42" {
			b.Fatal(s)
		}
		r.Close(ctx)
		for b.Loop() {
			r, err := e.Restore(ctx, img, abi.Limits{}, h)
			if err != nil {
				b.Fatal(err)
			}
			r.Close(ctx)
		}
	})
}

// BenchmarkRestoreResume is restore and then the rest of the run: both
// requests settled, the result read, as a peer's load + resume is.
func BenchmarkRestoreResume(b *testing.B) {
	forEngines(b, needs{snapshot: true}, "", func(b *testing.B, e abi.Engine) {
		c := suspended(b, e)
		img, err := c.Snapshot(ctx)
		c.Close(ctx)
		if err != nil {
			b.Fatal(err)
		}
		h := &benchHost{}
		for b.Loop() {
			r, err := e.Restore(ctx, img, abi.Limits{}, h)
			if err != nil {
				b.Fatal(err)
			}
			r.Settle(ctx, 1, abi.Resolve(`{"n":4}`))
			if s := r.Settle(ctx, 2, abi.Resolve(`{"n":2}`)); s.Value != "42" {
				b.Fatal(s)
			}
			r.Close(ctx)
		}
	})
}

func BenchmarkTemplateStart(b *testing.B) {
	forEngines(b, needs{prelude: true}, bridgeNames+Tools200JS, func(b *testing.B, e abi.Engine) {
		h := &benchHost{}
		c := newCell(b, e, h)
		if s := c.Run(ctx, "return Object.keys(tools).length", "cell.js"); s.Value != "200" {
			b.Fatal(s)
		}
		c.Close(ctx)
		for b.Loop() {
			newCell(b, e, h).Close(ctx)
		}
	})
}

// runtime returns a host run on e (built with the host prelude) with tools.
func runtime(b *testing.B, e abi.Engine, config string, tools ...tool.Tool) *host.Run {
	rt, err := host.New(ctx, &host.Options{Tools: tools, CodeMode: hosttest.CodeMode(json.RawMessage(config)), Engine: e})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rt.Close(ctx) })
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s1", RunID: "r1"}})
	if err != nil {
		b.Fatal(err)
	}
	return run
}

func code(src string) json.RawMessage {
	j, _ := json.Marshal(map[string]string{"code": src})
	return j
}

var echo = tool.Tool{Name: "echo", Description: "Returns 1.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
	Execute: func(context.Context, tool.Call) (tool.Result, error) {
		return tool.Result{Details: 1}, nil
	}}

func BenchmarkExecTrivial(b *testing.B) {
	forEngines(b, needs{prelude: true}, host.Prelude(), func(b *testing.B, e abi.Engine) {
		run := runtime(b, e, `true`, echo)
		args := code("return 1")
		for b.Loop() {
			if r := run.Exec(ctx, "c", args); r.Status != host.StatusCompleted {
				b.Fatal(r)
			}
		}
	})
}

// BenchmarkExecWait is the cheapest park and resume: an exec that yields,
// answered waiting, and the wait that finishes it.
func BenchmarkExecWait(b *testing.B) {
	forEngines(b, needs{prelude: true}, host.Prelude(), func(b *testing.B, e abi.Engine) {
		run := runtime(b, e, `true`, echo)
		args := code("await yield_control('pause'); return 1")
		for b.Loop() {
			r := run.Exec(ctx, "c", args)
			if r.Status != host.StatusWaiting {
				b.Fatal(r)
			}
			id, _ := json.Marshal(map[string]string{"runId": r.RunID})
			if w := run.Wait(ctx, id); w.Status != host.StatusCompleted || string(w.Value) != "1" {
				b.Fatal(w)
			}
		}
	})
}

func BenchmarkNestedCalls(b *testing.B) {
	const calls = 1000
	forEngines(b, needs{prelude: true}, host.Prelude(), func(b *testing.B, e abi.Engine) {
		run := runtime(b, e, `{"enabled": true, "timeoutMs": 60000}`, echo)
		args := code(fmt.Sprintf("let n = 0; for (let i = 0; i < %d; i++) n += await tools.callValue('echo', {}); return n", calls))
		start := time.Now()
		for b.Loop() {
			if r := run.Exec(ctx, "c", args); string(r.Value) != strconv.Itoa(calls) {
				b.Fatal(r)
			}
		}
		b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*calls), "ns/call")
	})
}

// searchTools returns n tools over a spread of origins, verbs and nouns.
func searchTools(n int) []catalog.Tool {
	verbs := []string{"list", "get", "create", "update", "delete", "search", "send", "read", "sync", "export"}
	nouns := []string{"issue", "file", "message", "calendar_event", "shipment", "invoice", "user", "page", "record", "build"}
	origins := []catalog.Origin{catalog.OriginCore, catalog.OriginBundledPlugin, catalog.OriginExternalPlugin, catalog.OriginMCP, catalog.OriginClient}
	tools := make([]catalog.Tool, n)
	for i := range tools {
		verb, noun := verbs[i%len(verbs)], nouns[i/len(verbs)%len(nouns)]
		t := catalog.Tool{
			Name:        fmt.Sprintf("%s_%s_%d", verb, noun, i),
			Description: fmt.Sprintf("%s a %s; returns %s records with ids and timestamps (tool %d).", verb, noun, noun, i),
			InputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string"},"limit":{"type":"integer"}},"required":["%s_id"]}`, noun, noun)),
			Origin:      origins[i%len(origins)],
		}
		if t.Origin != catalog.OriginCore {
			t.Owner = fmt.Sprintf("owner-%d", i%11)
		}
		tools[i] = t
	}
	return tools
}

func BenchmarkCatalogSearch(b *testing.B) {
	c, err := catalog.Build(searchTools(10000), nil)
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"search issue", "create calendar event", "shipment", "list_user_42", "records timestamps", ""}
	i := 0
	for b.Loop() {
		if _, err := c.Search(queries[i%len(queries)], 0); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
