package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/tool"
)

// Definition is a model-visible tool as MCP and the major providers expect
// it. Title, OutputSchema and Annotations are set for a tool passed through
// that has them.
type Definition struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

func definition(t *tool.Tool) Definition {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return Definition{Name: t.Name, Title: t.Label, Description: t.Description, InputSchema: schema,
		OutputSchema: t.OutputSchema, Annotations: t.Annotations}
}

// ErrFailClosed is returned when the model-facing tool list would not be
// exactly exec, wait and approved direct-only tools.
var ErrFailClosed = errors.New("code mode surface check failed")

// ExecIntro starts the exec description; the surface check looks for it.
const ExecIntro = "Run a JavaScript or TypeScript program in a sandbox to work with the hidden tool catalog."

// WaitDescription is the wait tool's whole description.
const WaitDescription = "Resume a code mode program that returned status \"waiting\", by its runId. " +
	"Returns the same result shape as exec."

// WaitDefinition is code mode's wait tool.
func WaitDefinition() Definition {
	return Definition{Name: "wait", Description: WaitDescription, InputSchema: json.RawMessage(
		`{"type":"object","properties":{"runId":{"type":"string","description":"The runId of a waiting result."}},"required":["runId"],"additionalProperties":false}`),
		OutputSchema: ResultSchema}
}

// ResultSchema is the output schema of exec and wait: the CodeModeResult
// their structuredContent holds, so that a client can check and type it.
// Only status is required and every object stays open, so that a field a
// later version adds never makes a client refuse a result.
var ResultSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"status":{"type":"string","enum":["completed","waiting","failed"]},` +
	`"value":{"description":"The cell's return value (completed)."},` +
	`"runId":{"type":"string","description":"What wait resumes (waiting)."},` +
	`"reason":{"type":"string"},` +
	`"pendingToolCalls":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"method":{"type":"string"}}}},` +
	`"error":{"type":"string"},` +
	`"code":{"type":"string"},` +
	`"output":{"type":"array","items":{"type":"object","properties":{"type":{"type":"string","enum":["text","json"]},"text":{"type":"string"},"value":{}},"required":["type"]}},` +
	`"telemetry":{"type":"object"}` +
	`},"required":["status"]}`)

// IsToolSearchControl reports a name of Tool Search's model-visible
// controls, which are never catalogued.
func IsToolSearchControl(name string) bool {
	switch name {
	case "tool_search_code", "tool_search", "tool_describe", "tool_call":
		return true
	}
	return false
}

// CheckSurface is code mode's final fail-closed check: exactly one exec, one
// wait, and only the approved direct-only tools.
func CheckSurface(visible, direct []Definition) error {
	var execs, waits int
	for _, d := range visible {
		switch {
		case d.Name == "exec":
			if !strings.HasPrefix(d.Description, ExecIntro) {
				return fmt.Errorf("%w: an exec that is not code mode's", ErrFailClosed)
			}
			execs++
		case d.Name == "wait":
			if d.Description != WaitDescription {
				return fmt.Errorf("%w: a wait that is not code mode's", ErrFailClosed)
			}
			waits++
		case IsToolSearchControl(d.Name):
			return fmt.Errorf("%w: Tool Search control %q", ErrFailClosed, d.Name)
		case !slices.ContainsFunc(direct, func(x Definition) bool { return x.Name == d.Name }):
			return fmt.Errorf("%w: %q is neither a control nor a direct-only tool", ErrFailClosed, d.Name)
		}
	}
	if execs != 1 || waits != 1 {
		return fmt.Errorf("%w: want one exec and one wait, have %d and %d", ErrFailClosed, execs, waits)
	}
	return nil
}
