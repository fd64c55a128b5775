package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/tool"
)

func TestHooksSeeBlockAndRewriteCalls(t *testing.T) {
	var mu sync.Mutex
	var events []tool.Event
	var after []string
	hooks := tool.Hooks{
		BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
			switch {
			case e.ToolName == "shipping_mark_paid":
				return tool.Decision{Block: true, Reason: "payments are frozen"}
			case e.ToolName == "echo":
				return tool.Decision{Input: json.RawMessage(`{"rewritten":true}`)}
			}
			return tool.Decision{}
		},
		AfterToolCall: func(ctx context.Context, e tool.Event, r tool.Result, err error) {
			mu.Lock()
			after = append(after, e.ToolID)
			mu.Unlock()
		},
	}
	ran := false
	markPaid := tool.Tool{Name: "shipping_mark_paid", Execute: func(context.Context, tool.Call) (tool.Result, error) { ran = true; return tool.Result{}, nil }}
	echo := tool.Tool{Name: "echo", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) { return tool.Result{Details: c.Input}, nil }}
	rt, err := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{markPaid, echo}, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{})
	r := run.Exec(context.Background(), "call_9", json.RawMessage(`{"code":"let m; try { await tools.shipping_mark_paid({id: 'a'}) } catch (e) { m = e.message } return [m, await tools.echo({a: 1})]","language":"javascript"}`))
	if string(r.Value) != `["Tool \"openclaw:core:shipping_mark_paid\" was blocked before execution: payments are frozen",{"rewritten":true}]` {
		t.Fatalf("%+v", r)
	}
	if ran {
		t.Fatal("a blocked tool ran")
	}
	if len(events) != 3 || events[0].ToolKind != tool.KindCodeModeExec || events[0].ToolInputKind != "javascript" ||
		events[0].CallID != "call_9" || events[1].ParentCallID != "call_9" || events[1].ToolID != "openclaw:core:shipping_mark_paid" {
		t.Fatalf("events %+v", events)
	}
	if strings.Join(after, ",") != "openclaw:core:echo" {
		t.Fatalf("after hooks %v", after)
	}
}

func TestBlockedExec(t *testing.T) {
	hooks := tool.Hooks{BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
		return tool.Decision{Block: e.ToolKind == tool.KindCodeModeExec && e.ToolInputKind == "typescript", Reason: "no typescript today"}
	}}
	rt, _ := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{shipments()}, Hooks: hooks})
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{})
	if r := run.Exec(context.Background(), "c", json.RawMessage(`{"code":"return 1","language":"typescript"}`)); r.Error != "exec was blocked before execution: no typescript today" {
		t.Fatalf("%+v", r)
	}
	if r := exec(t, run, "return 1"); string(r.Value) != "1" {
		t.Fatalf("%+v", r)
	}
}

func TestApprovalArrivesAfterExecReturnedWaiting(t *testing.T) {
	decide := make(chan bool)
	asked := make(chan tool.Event, 4)
	hooks := tool.Hooks{Approve: func(ctx context.Context, e tool.Event) (bool, string, error) {
		asked <- e
		select {
		case ok := <-decide:
			return ok, "the operator said no", nil
		case <-ctx.Done():
			return false, "", ctx.Err()
		}
	}}
	send := tool.Tool{Name: "send", RequireApproval: true, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: "sent"}, nil
	}}
	rt, _ := New(context.Background(), &Options{CodeMode: codeModeJSON(json.RawMessage(fmt.Sprintf(`{"enabled":true,"timeoutMs":%d}`, parkTimeoutMs))), Tools: []tool.Tool{send}, Hooks: hooks})
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `const a = await tools.send({}); let b; try { await tools.send({}) } catch (e) { b = e.message } return [a, b]`)
	if r.Status != StatusWaiting {
		t.Fatalf("%+v", r)
	}
	<-asked
	decide <- true
	w := run.Wait(context.Background(), waitArgs(r.RunID))
	if w.Status != StatusWaiting { // the second call now waits for its own approval
		t.Fatalf("%+v", w)
	}
	<-asked
	decide <- false
	w = run.Wait(context.Background(), waitArgs(w.RunID))
	if string(w.Value) != `["sent","Tool \"openclaw:core:send\" was blocked before execution: the operator said no"]` {
		t.Fatalf("%+v", w)
	}
}

func TestOutputContracts(t *testing.T) {
	bad := tool.Tool{Name: "liar", OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}`),
		Execute: func(context.Context, tool.Call) (tool.Result, error) {
			return tool.Result{Details: map[string]any{"n": "secret-value"}}, nil
		}}
	ran := false
	broken := tool.Tool{Name: "broken", OutputSchema: json.RawMessage(`{"type": 12}`),
		Execute: func(context.Context, tool.Call) (tool.Result, error) { ran = true; return tool.Result{}, nil }}
	client := tool.Tool{Name: "claims", OutputSchema: json.RawMessage(`{"type":"number"}`),
		Execute: func(context.Context, tool.Call) (tool.Result, error) {
			return tool.Result{Details: "not a number"}, nil
		}}
	rt, _ := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{shipments(), bad, broken}})
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{ClientTools: []tool.Tool{client}})
	r := exec(t, run, `
		const out = [(await tools.shipping_list()).length, await tools.claims()];
		for (const id of ["liar", "broken"]) { try { await tools.callValue(id) } catch (e) { out.push(e.message) } }
		return out;`)
	want := `[3,"not a number","Tool \"openclaw:core:liar\" returned details that do not match its declared outputSchema.","Tool \"openclaw:core:broken\" has an invalid outputSchema."]`
	if string(r.Value) != want {
		t.Fatalf("%s %s", r.Value, r.Error)
	}
	if ran || strings.Contains(string(r.Value), "secret-value") {
		t.Fatal("broken schema tool ran, or the mismatching value was printed")
	}
	if idx := run.Tools()[0].Description; strings.Contains(idx, `"client:client:claims" unknown -> number`) {
		t.Fatal("a client output claim became a hint")
	}
}

func TestRestartSafeRuns(t *testing.T) {
	sideEffects := 0
	read := tool.Tool{Name: "read_doc", ReplaySafe: true, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: "doc"}, nil
	}}
	write := tool.Tool{Name: "write_doc", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		sideEffects++
		return tool.Result{Details: "written"}, nil
	}}
	rt, _ := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{read, write}})
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{TurnID: "turn-1"})
	safe := func(src string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"code": src, "restartSafe": true})
		return b
	}
	r := run.Exec(context.Background(), "c1", safe(`const [t] = await tools.search("read doc"); return [t.id, await tools.read_doc()]`))
	if r.Status != StatusWaiting || !r.ReplaySafe || !strings.HasPrefix(r.ReplayID, "cm_replay_") || len(r.ReplayID) != len("cm_replay_")+24 {
		t.Fatalf("restart-safe runs never auto-drain: %+v", r)
	}
	for r.Status == StatusWaiting {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	if string(r.Value) != `["openclaw:core:read_doc","doc"]` || !r.ReplaySafe {
		t.Fatalf("%+v", r)
	}
	r = run.Exec(context.Background(), "c2", safe(`await tools.read_doc(); return await tools.write_doc()`))
	for r.Status == StatusWaiting {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	if r.Status != StatusFailed || r.Error != msgRestartSafeSideEffect || r.Code != "invalid_input" || sideEffects != 0 {
		t.Fatalf("side effect not refused before it ran: %+v, ran %d", r, sideEffects)
	}
	if a, b := replayID(run.opts, "c1", "x"), replayID(RunOptions{Scope: scope, TurnID: "turn-2"}, "c1", "x"); a == b {
		t.Fatal("a reused tool-call id in another turn got the same replay id")
	}
}

func TestCallDirect(t *testing.T) {
	var seen []string
	image := tool.Tool{Name: "image", DirectOnly: true, RequireApproval: true, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Content: []json.RawMessage{json.RawMessage(`{"type":"image","data":"AA==","mimeType":"image/png"}`)}}, nil
	}}
	hooks := tool.Hooks{
		BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
			seen = append(seen, string(e.ToolKind)+":"+e.ToolName)
			return tool.Decision{}
		},
		Approve: func(context.Context, tool.Event) (bool, string, error) { return true, "", nil },
	}
	rt, _ := New(context.Background(), &Options{CodeMode: &Config{Enabled: true}, Tools: []tool.Tool{shipments(), image}, Hooks: hooks})
	defer rt.Close(context.Background())
	run := prepare(t, rt, RunOptions{})
	res, err := run.CallDirect(context.Background(), "c1", "image", json.RawMessage(`{}`))
	if err != nil || len(res.Content) != 1 || strings.Join(seen, ",") != "direct_tool:image" {
		t.Fatalf("%v %+v %v", err, res, seen)
	}
	if _, err := run.CallDirect(context.Background(), "c2", "shipping_list", json.RawMessage(`{}`)); err == nil {
		t.Fatal("a catalogued tool was callable directly while code mode is active")
	}
	off, _ := New(context.Background(), &Options{CodeMode: &Config{}, Tools: []tool.Tool{shipments()}})
	defer off.Close(context.Background())
	if res, err := prepare(t, off, RunOptions{}).CallDirect(context.Background(), "c3", "shipping_list", nil); err != nil || res.Details == nil {
		t.Fatalf("code mode off: %v", err)
	}
}
