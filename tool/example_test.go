package tool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/seed11a79d2d/codemode/tool"
)

// weather is a Source whose one tool never changes, as a plugin writes it
// without linking the host: pass it in host.Options.Sources.
type weather struct{}

func (weather) Version() uint64 { return 1 }

func (weather) Tools() []tool.Tool {
	return []tool.Tool{{
		Name: "forecast", Plugin: "weather", ReplaySafe: true,
		Description: "Tomorrow's forecast for a city.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			var in struct{ City string }
			if err := json.Unmarshal(c.Input, &in); err != nil {
				return tool.Result{}, err
			}
			return tool.Result{Details: map[string]any{"city": in.City, "sky": "clear"}}, nil
		},
	}}
}

func Example() {
	var src tool.Source = weather{}
	forecast := src.Tools()[0]
	res, err := forecast.Execute(context.Background(), tool.Call{ID: "c1", ToolID: "openclaw:weather:forecast", Input: json.RawMessage(`{"city":"Oslo"}`)})
	fmt.Println(res.Details, err)

	// A namespace member without a mapper takes the guest's first argument
	// as the tool's input, or {} when there is none.
	member := tool.NamespaceTool("forecast", nil)
	in, _ := member.Input(nil)
	fmt.Println(member.ToolName(), string(in))

	// Hooks see each call as an Event of a Kind.
	hooks := tool.Hooks{BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
		return tool.Decision{Block: e.ToolKind == tool.KindNested && e.ToolName == "forecast", Reason: "no forecasts today"}
	}}
	fmt.Println(hooks.BeforeToolCall(context.Background(), tool.Event{ToolKind: tool.KindNested, ToolName: "forecast"}))
	// Output:
	// map[city:Oslo sky:clear] <nil>
	// forecast {}
	// {true no forecasts today []}
}
