package host

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/tool"
)

// withholding is an MCP source of one tool, kept, that holds another back.
type withholding struct{}

func (withholding) Tools() []tool.Tool {
	return []tool.Tool{{Name: "kept", MCPServer: "s", InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, tool.Call) (tool.Result, error) {
			return tool.Result{Details: map[string]any{"content": []any{}}}, nil
		}}}
}
func (withholding) Version() uint64 { return 1 }
func (withholding) Quarantined(id string) error {
	if id == "mcp:s:changed" {
		return tool.Message("MCP tool mcp:s:changed changed since it was pinned.")
	}
	return nil
}

// A call of a tool its source holds back, by its exact id, says why; a
// tool that does not exist still gets the usual answer. (MCP.<server>.<name>
// of a name the run's declarations lack is answered in the guest.)
func TestWithheldToolSaysWhy(t *testing.T) {
	run := prepare(t, newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Sources: []tool.Source{withholding{}}}), RunOptions{})
	r := exec(t, run, `const out = [];
		for (const f of [() => tools.call("mcp:s:changed", {}), () => tools.callValue("mcp:s:changed", {}), () => tools.call("mcp:s:nope", {})]) {
			try { await f(); out.push("called") } catch (e) { out.push(e.message) }
		}
		return out`)
	var got []string
	json.Unmarshal(r.Value, &got)
	want := "MCP tool mcp:s:changed changed since it was pinned."
	if len(got) != 3 || got[0] != want || got[1] != want || strings.Contains(got[2], "pinned") {
		t.Errorf("got %q (%s)", got, r.Error)
	}
}
