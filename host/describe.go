package host

import (
	"encoding/json"
	"strings"
)

// execIntro starts the exec description; the surface check looks for it.
const execIntro = "Run a JavaScript or TypeScript program in a sandbox to work with the hidden tool catalog."

const execBody = " The program is the body of an async function: use `return` for the result and `await` freely; " +
	"a trailing expression is not returned. Inside: `ALL_TOOLS` (compact catalog entries), " +
	"`tools.search(query, { limit })`, `tools.describe(id)`, `tools.callValue(id, input)` (the tool's JSON details) " +
	"and `tools.call(id, input)` (the raw `{ tool, result }` envelope); `text(value)` and `json(value)` add output; " +
	"`yield_control(reason)` suspends until `wait`. In the index below `-> ?` means the output shape is unknown: " +
	"return `await tools.callValue(...)` unchanged first and transform it in a later exec instead of guessing fields. " +
	"No imports, require, files, network or environment. Example: " +
	"`const [t] = await tools.search(\"list shipments\"); return await tools.callValue(t.id, {});`"

const execMCPText = " MCP server tools are reached only through the `MCP` namespace (`MCP.<server>.<tool>({ ...input })`); " +
	"read their declarations with `API.list(\"mcp\")` and `API.read(\"mcp/<server>.d.ts\")`."

const execLanguageText = " Set `language` to \"typescript\" for TypeScript (types are stripped, not checked)."

const waitDescription = "Resume a code mode program that returned status \"waiting\", by its runId. " +
	"Returns the same result shape as exec."

// execDefinition renders the exec tool for this run.
func (run *Run) execDefinition() ToolDefinition {
	var b strings.Builder
	b.WriteString(execIntro)
	b.WriteString(execBody)
	if run.catalog.Sources().MCP > 0 {
		b.WriteString(execMCPText)
	}
	langs := run.rt.cfg.Languages
	if len(langs) == 2 {
		b.WriteString(execLanguageText)
	}
	b.WriteString(run.namespaceText())
	if index := run.catalog.QuickIndex(); index != "" {
		b.WriteString("\n\n")
		b.WriteString(index)
	}
	props := map[string]any{
		"code":    map[string]any{"type": "string", "description": "The program: an async function body; `return` gives the result."},
		"command": map[string]any{"type": "string", "description": "Alias of code; if both are given they must be equal."},
		"language": map[string]any{"type": "string", "enum": langs,
			"description": "Source language; default javascript."},
		"restartSafe": map[string]any{"type": "boolean",
			"description": "Read-only work that may be replayed after a host restart: side-effecting tools are refused."},
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
	return ToolDefinition{Name: "exec", Description: b.String(), InputSchema: schema}
}

func waitDefinition() ToolDefinition {
	return ToolDefinition{Name: "wait", Description: waitDescription, InputSchema: json.RawMessage(
		`{"type":"object","properties":{"runId":{"type":"string","description":"The runId of a waiting result."}},"required":["runId"],"additionalProperties":false}`)}
}
