package host_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// With tools.swarm on, a cell fans out children that the program's Agents
// runs; here a fixed function stands in for a model.
func ExampleAgentFunc() {
	ctx := context.Background()
	agent := host.AgentFunc(func(ctx context.Context, req host.AgentRequest) (string, error) {
		if req.Schema != nil {
			return `{"ok": true}`, nil
		}
		return req.Label + " read: " + req.Prompt, nil
	})
	noop := tool.Tool{Name: "noop", Description: "Do nothing.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, tool.Call) (tool.Result, error) { return tool.Result{}, nil }}
	rt, err := host.New(ctx, &host.Options{Tools: []tool.Tool{noop}, CodeMode: &host.Config{Enabled: true},
		Swarm: &host.SwarmConfig{Enabled: true}, Agents: agent})
	if err != nil {
		panic(err)
	}
	defer rt.Close(ctx)
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{SessionID: "s", RunID: "r"}})
	if err != nil {
		panic(err)
	}
	r := run.Exec(ctx, "call_1", json.RawMessage(`{"code": "return await Promise.all([agents.run('the memo', { label: 'a' }), agents.run('check', { schema: { type: 'object' } })])"}`))
	fmt.Println(r.Status, string(r.Value))
	// Output:
	// completed ["a read: the memo",{"ok":true}]
}
