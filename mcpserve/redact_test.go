package mcpserve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/redact"
)

// With Options.Redact, a credential a cell prints, returns or throws
// reaches the model as a marker, in content and structured content alike.
func TestRedactedCellResult(t *testing.T) {
	f := newFixture(t, `true`)
	x := redact.New(redact.Options{Secrets: []string{"the-provider-key-0123"}})
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: f.httpWith(t, &Options{Redact: x})}, nil)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	const tok = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	for _, code := range []string{
		`text("token ` + tok + `"); json({k: "the-provider-key-0123"}); return {t: "` + tok + `"}`,
		`throw new Error("bad token ` + tok + `")`,
		// Spelled out at run time, so the code never holds it whole.
		`return ["ghp", "_abcdefghijklmnopqrstuvwxyz0123456789"].join("")`,
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{"code": code}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		if strings.Contains(string(b), tok) || strings.Contains(string(b), "the-provider-key-0123") || !strings.Contains(string(b), "[REDACTED:") {
			t.Errorf("%s: %s", code, b)
		}
	}
}
