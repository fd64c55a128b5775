package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeApprovalThroughElicitation drives tools.approval through a real
// codemode serve process: the person at a Go SDK client accepts one call,
// declines another, and answers a third only after exec has returned
// waiting, so that wait completes it.
func TestServeApprovalThroughElicitation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildCommand(t)
	cfg, _ := filepath.Abs("../../examples/approval.json5")
	example, err := os.ReadFile("../../examples/approval.js")
	if err != nil {
		t.Fatal(err)
	}
	answers := make(chan string, 3)
	asked := make(chan string, 3)
	client := sdk.NewClient(&sdk.Implementation{Name: "person", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked <- req.Params.Message
			select {
			case a := <-answers:
				return &sdk.ElicitResult{Action: a}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := connectServe(t, ctx, client, bin, "--config", cfg)
	execCell := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r map[string]any
		json.Unmarshal(b, &r)
		return r
	}
	const cell = `try { const r = await tools.callValue("shipping_mark_paid", { id: "%s" }); return "paid " + JSON.stringify(r) }
		catch (e) { return "refused: " + e.message }`

	answers <- "accept"
	if r := execCell("exec", map[string]any{"code": string(example)}); r["value"].(map[string]any)["approved"] != true {
		t.Fatalf("accepted: %v", r)
	}
	if q := <-asked; !strings.Contains(q, "openclaw:demo:shipping_mark_paid") || !strings.Contains(q, "SHP-102") {
		t.Errorf("the person was asked %q", q)
	}

	answers <- "decline"
	if r := execCell("exec", map[string]any{"code": strings.Replace(cell, "%s", "SHP-103", 1)}); !strings.Contains(r["value"].(string), "refused: ") ||
		!strings.Contains(r["value"].(string), "the person at the client declined") {
		t.Fatalf("declined: %v", r)
	}
	<-asked

	// Padding once ended the prompt before the rest of the input: it is now
	// a note of its length, and the rest shows. An input too long to show
	// whole is declined without asking.
	answers <- "decline"
	execCell("exec", map[string]any{"code": strings.Replace(cell, `"%s"`, `"SHP-105" + " ".repeat(300) + "-AND-ALL-OTHERS"`, 1)})
	if q := <-asked; !strings.Contains(q, `{"id":"SHP-105⟨300 spaces⟩-AND-ALL-OTHERS"}`) {
		t.Errorf("the person was asked %q", q)
	}
	if r := execCell("exec", map[string]any{"code": strings.Replace(cell, `"%s"`, `"SHP-106" + "ab".repeat(5000)`, 1)}); !strings.Contains(r["value"].(string),
		"refused: Tool \"openclaw:demo:shipping_mark_paid\" was blocked before execution: its input cannot be shown for approval: it is too long") {
		t.Fatalf("too long: %v", r)
	}
	select {
	case q := <-asked:
		t.Fatalf("asked about an input too long to show: %.100q", q)
	default:
	}

	// No answer yet: the cell parks past its 1 s deadline with the call
	// pending; the answer comes while it waits.
	r := execCell("exec", map[string]any{"code": strings.Replace(cell, "%s", "SHP-104", 1)})
	if r["status"] != "waiting" {
		t.Fatalf("with the approval pending: %v", r)
	}
	<-asked
	answers <- "accept"
	for r["status"] == "waiting" {
		r = execCell("wait", map[string]any{"runId": r["runId"]})
	}
	if r["status"] != "completed" || !strings.HasPrefix(r["value"].(string), "paid") {
		t.Fatalf("after wait: %v", r)
	}
}
