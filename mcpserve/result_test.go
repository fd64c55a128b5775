package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// nest is a cell expression for an array nested n levels deep.
func nest(n int) string {
	return fmt.Sprintf(`(() => { let d = 0; for (let i = 0; i < %d; i++) d = [d]; return d; })()`, n)
}

// TestUnsendableResultsFail drives cells whose results cannot travel as a
// JSON-RPC response through the real HTTP server and the Go SDK's client:
// past 10000 levels encoding/json cannot write them (and the SDK would send
// nothing), past the SDK's 1000 its client cannot read them (and would close
// the session). Each must come back as a failed result, on a session that
// still works.
func TestUnsendableResultsFail(t *testing.T) {
	f := newFixture(t, `{"enabled":true,"timeoutMs":60000}`) // deep json() is slow to build
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: f.http(t)}, nil)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	for _, tc := range []struct {
		name, code string
		status     string // "completed" or the failed result's code
	}{
		// The value sits 3 levels into the message: 997 + 3 is the most
		// the SDK's client reads.
		{"deepest value sent", `return ` + nest(997), "completed"},
		{"value one level deeper", `return ` + nest(998), "output_limit_exceeded"},
		{"json() output past the SDK's decoder", `text("before"); json(` + nest(5000) + `); return 1`, "output_limit_exceeded"},
		{"json() output past encoding/json", `json(` + nest(10001) + `); return 1`, "output_limit_exceeded"},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{"code": tc.code}})
		if err != nil {
			t.Fatalf("%s: no result: %v", tc.name, err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r host.Result
		json.Unmarshal(b, &r)
		if tc.status == "completed" {
			if res.IsError || r.Status != "completed" {
				t.Errorf("%s: %s", tc.name, b)
			}
			continue
		}
		// Past encoding/json the host itself fails the run, with its own
		// message; past the SDK's decoder this package does.
		if !res.IsError || r.Status != "failed" || string(r.Code) != tc.status ||
			!strings.Contains(r.Error, "1000 levels") && !strings.Contains(r.Error, "10000 levels") {
			t.Errorf("%s: %s", tc.name, b)
		}
		if strings.Contains(tc.code, "before") && (len(r.Output) != 1 || r.Output[0].Text != "before") {
			t.Errorf("%s: text output was not kept: %s", tc.name, b)
		}
	}
	if res, r := call(t, ctx, cs, "exec", map[string]string{"code": `return 6 * 7`}); res.IsError || r["value"] != 42.0 {
		t.Fatalf("the session after the failures: %v", r)
	}
}

// A waiting result that cannot be sent fails, and its run is aborted: the
// client never learns the runId, so nothing else would end it.
func TestUnsendableWaitingResultAbortsTheRun(t *testing.T) {
	f := newFixture(t, `{"enabled":true,"timeoutMs":60000}`)
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: f.http(t)}, nil)
	defer cs.Close()
	// yield_control parks the run at once, with the sleep pending.
	// 5,000 levels: past the SDK's decoder, within what the host encodes.
	res, r := call(t, context.Background(), cs, "exec", map[string]string{"code": `json(` + nest(5000) + `);
		const slept = tools.callValue("openclaw:core:sleep", {ms: 600000});
		await yield_control("park");
		return await slept;`})
	if !res.IsError || r["status"] != "failed" || r["code"] != "output_limit_exceeded" || r["runId"] != nil {
		t.Fatalf("exec: %v", r)
	}
	started(t, f)
	released(t, f, "unsendable waiting result")
}

// A direct tool's result is checked the same way. Details nested 999 deep
// make a CallToolResult 1000 deep, which the SDK still decodes from the tool
// but which is one level too many inside the response message.
func TestUnsendableDirectResultFails(t *testing.T) {
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Tools: []tool.Tool{{
		Name: "deep", Description: "Deep details.", DirectOnly: true, InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			var d any = 0
			for range 999 {
				d = map[string]any{"d": d}
			}
			return tool.Result{Details: d}, nil
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	f := &fixture{rt: rt}
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: f.http(t)}, nil)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "deep", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("no result: %v", err)
	}
	if !res.IsError || !strings.HasPrefix(contentText(res), "tool result cannot be sent") {
		t.Fatalf("deep direct result: %+v %q", res, contentText(res))
	}
}

func TestDepth(t *testing.T) {
	for js, want := range map[string]int{`1`: 0, `[]`: 1, `{"a":[1,{"b":2}]}`: 3, `["[[[{", "\"[["]`: 1, `[[],[[]]]`: 3} {
		if got := depth([]byte(js)); got != want {
			t.Errorf("depth(%s) = %d, want %d", js, got, want)
		}
	}
}
