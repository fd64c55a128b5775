package host_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// A Go program registers its tools, prepares a run and hands exec and wait to
// its model; here the "model" is one fixed cell.
func Example() {
	ctx := context.Background()
	add := tool.Tool{
		Name:        "add",
		Description: "Add two numbers.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
		Execute: func(ctx context.Context, call tool.Call) (tool.Result, error) {
			var in struct{ A, B float64 }
			if err := json.Unmarshal(call.Input, &in); err != nil {
				return tool.Result{}, err
			}
			return tool.Result{Details: in.A + in.B}, nil
		},
	}
	rt, err := host.New(ctx, &host.Options{Tools: []tool.Tool{add}, CodeMode: &host.Config{Enabled: true}})
	if err != nil {
		panic(err)
	}
	defer rt.Close(ctx)
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{AgentID: "a", SessionID: "s", RunID: "r"}})
	if err != nil {
		panic(err)
	}
	for _, t := range run.Tools() {
		fmt.Println(t.Name)
	}
	r := run.Exec(ctx, "call_1", json.RawMessage(`{"code": "return await tools.add({a: 2, b: 3})"}`))
	fmt.Println(r.Status, string(r.Value))
	// Output:
	// exec
	// wait
	// completed 5
}

// A cell that waits on a slow tool suspends; wait resumes it.
func ExampleRun_Wait() {
	ctx := context.Background()
	rt, _ := host.New(ctx, &host.Options{CodeMode: &host.Config{Enabled: true}, Tools: []tool.Tool{{
		Name: "noop", Execute: func(context.Context, tool.Call) (tool.Result, error) { return tool.Result{}, nil },
	}}})
	defer rt.Close(ctx)
	run, _ := rt.Prepare(host.RunOptions{Scope: tool.Scope{SessionID: "s", RunID: "r"}})
	r := run.Exec(ctx, "call_1", json.RawMessage(`{"code": "text('asked'); await yield_control('need input'); return 'resumed'"}`))
	fmt.Println(r.Status, r.Reason, r.Output[0].Text)
	id, _ := json.Marshal(map[string]string{"runId": r.RunID})
	r = run.Wait(ctx, id)
	fmt.Println(r.Status, string(r.Value))
	// Output:
	// waiting yield asked
	// completed "resumed"
}
