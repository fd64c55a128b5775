package host

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

// exec and wait declare the CodeModeResult as their output schema, and
// every kind of result conforms to it: completed with output, waiting,
// failed, and a wait's own.
func TestResultsConformToTheOutputSchema(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal(table.ResultSchema, &s); err != nil {
		t.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	rt := newRuntime(t, `{"enabled":true,"timeoutMs":500}`, tool.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			<-release
			return tool.Result{Details: "done"}, nil
		}})
	run := prepare(t, rt, RunOptions{})
	for _, d := range run.Tools() {
		if (d.Name == "exec" || d.Name == "wait") && string(d.OutputSchema) != string(table.ResultSchema) {
			t.Errorf("%s declares output schema %s", d.Name, d.OutputSchema)
		}
	}
	waiting := exec(t, run, `return await tools.callValue("slow", {})`)
	close(release)
	results := []Result{
		exec(t, run, `text("hi"); json({a: 1}); return {n: [1, "x", null]}`),
		exec(t, run, `throw new Error("no")`),
		waiting,
	}
	wait, _ := json.Marshal(map[string]any{"runId": waiting.RunID})
	results = append(results, run.Wait(context.Background(), wait))
	for _, r := range results {
		b, _ := json.Marshal(r)
		var v any
		json.Unmarshal(b, &v)
		if err := resolved.Validate(v); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	if results[2].Status != StatusWaiting || results[3].Status != StatusCompleted {
		t.Errorf("statuses %s, %s", results[2].Status, results[3].Status)
	}
}
