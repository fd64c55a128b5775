package host

import (
	"encoding/json"
	"os"
	"time"

	"github.com/seed11a79d2d/codemode/host/internal/bridge"
)

// NestedCall is one nested tool call, recorded under its parent exec call so
// the embedding program can project it into its transcript as a real tool
// call.
type NestedCall struct {
	ID           string          `json:"id"` // tool_search_code:<parent>:<method>:<seq>
	ParentCallID string          `json:"parentCallId"`
	ToolID       string          `json:"toolId"`
	Method       string          `json:"method"`          // the bridge operation: call, callValue, mcp, mcp_request (resources and prompts) or namespace; agents.run, phase or log with tools.swarm
	Label        string          `json:"label,omitempty"` // options.label of an agents.run child
	Input        json.RawMessage `json:"input"`
	Error        string          `json:"error,omitempty"`
	Start        time.Time       `json:"start"`
	Duration     time.Duration   `json:"duration"`
}

// Debug switches, read once by [New].
const (
	// DebugEnv set to 1 logs the model-facing tool names of every prepared run.
	DebugEnv = "CODEMODE_DEBUG"
	// DebugPayloadEnv set to "tools" logs the names, "full-redacted" also a
	// bounded JSON of the model-facing definitions with descriptions cut short.
	DebugPayloadEnv = "CODEMODE_DEBUG_PAYLOAD"
)

const (
	debugDescriptionChars = 160
	debugPayloadBytes     = 8 << 10
)

type debugMode struct{ names, payload bool }

func debugFromEnv() debugMode {
	p := os.Getenv(DebugPayloadEnv)
	return debugMode{
		names:   os.Getenv(DebugEnv) == "1" || p == "tools" || p == "full-redacted",
		payload: p == "full-redacted",
	}
}

// logSurface reports the model-facing surface of a prepared run.
func (run *Run) logSurface() {
	d := run.rt.debug
	if !d.names {
		return
	}
	var names []string
	for _, t := range run.visible {
		names = append(names, t.Name)
	}
	run.rt.logger.Info("code mode model-facing tools", "active", run.active, "tools", names)
	if !d.payload {
		return
	}
	redacted := make([]ToolDefinition, len(run.visible))
	for i, t := range run.visible {
		t.Description = bridge.Truncate(t.Description, debugDescriptionChars)
		redacted[i] = t
	}
	b, _ := json.Marshal(redacted)
	run.rt.logger.Info("code mode model-facing payload", "json", bridge.Truncate(string(b), debugPayloadBytes))
}
