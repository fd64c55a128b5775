package host

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/table"
)

// execCell is how to write a cell, whatever the run's tools: one short
// sentence per feature.
const execCell = " The program is the body of an async function; `await` freely. " +
	"Its trailing expression is the result (`return` is optional). " +
	"`text(value)` and `json(value)` add output; `console.log` works too. " +
	"`store(key, value)` and `load(key)` keep JSON state between this session's cells; both return promises, so `await` them. " +
	"`yield_control(reason)` suspends until `wait`. No imports, require, files, network or environment."

// execToolsText is said only when the catalog has tools outside MCP: with
// MCP servers alone, ALL_TOOLS is empty and tools.search finds nothing.
const execToolsText = " Catalog tools: `ALL_TOOLS` (compact entries), `tools.search(query, { limit })`, `tools.describe(id)`, " +
	"`tools.callValue(id, input)` (the tool's JSON details) and `tools.call(id, input)` (the raw `{ tool, result }` envelope)."

// execIndexText explains the quick index, said only when there is one.
const execIndexText = " In the index below `-> ?` means the output shape is unknown: " +
	"return `await tools.callValue(...)` unchanged first and transform it in a later exec instead of guessing fields."

const execMCPText = " Call an MCP tool as `MCP.<server>.<tool>(input)` by its exact MCP name or its camelCase form " +
	"(brackets for a name that is no identifier: `MCP.<server>[\"get-sum\"]`); it takes one object and resolves to " +
	"`{ content, structuredContent?, isError? }`. `MCP.$search(query, { limit })` finds MCP tools (each hit has its call `path`, " +
	"`description` and `input` type); `API.read(\"mcp/<server>.d.ts\")` declares a server's tools."

// execMCPApart is added when catalog tools and MCP tools are both there.
const execMCPApart = " MCP tools are not in `tools` or `ALL_TOOLS`."

// maxDescribedServers bounds the MCP servers the description names; the rest
// are counted.
const maxDescribedServers = 8

const execLanguageText = " Set `language` to \"typescript\" for TypeScript (types are stripped, not checked)."

// execDefinition renders the exec tool for this run.
func (run *Run) execDefinition() ToolDefinition {
	var b strings.Builder
	b.WriteString(table.ExecIntro)
	b.WriteString(execCell)
	counts := run.tab.Catalog.Sources()
	index := run.tab.Catalog.QuickIndex()
	if counts.OpenClaw+counts.Client > 0 {
		b.WriteString(execToolsText)
		if index != "" {
			b.WriteString(execIndexText)
		}
		if query, empty, ok := run.tab.Catalog.SearchExample(); ok {
			call := "return await tools.callValue(t.id, {});"
			if !empty {
				call = "return (await tools.describe(t.id)).parameters;"
			}
			fmt.Fprintf(&b, " Example: `const [t] = await tools.search(%s); %s`", bridge.Quote(query), call)
		}
	}
	if counts.MCP > 0 {
		run.writeMCPServers(&b)
		b.WriteString(execMCPText)
		if counts.OpenClaw+counts.Client > 0 {
			b.WriteString(execMCPApart)
		}
	}
	langs := run.rt.bounds.Languages
	if len(langs) == 2 {
		b.WriteString(execLanguageText)
	}
	b.WriteString(run.namespaceText())
	b.WriteString(run.rt.swarmText())
	if index != "" {
		b.WriteString("\n\n")
		b.WriteString(index)
	}
	props := map[string]any{
		"code":    map[string]any{"type": "string", "description": "The program: an async function body; its trailing expression or `return` is the result."},
		"command": map[string]any{"type": "string", "description": "Alias of code; if both are given they must be equal."},
		"language": map[string]any{"type": "string", "enum": langs,
			"description": "Source language; default javascript."},
		"restartSafe": map[string]any{"type": "boolean",
			"description": "Read-only work that may be replayed after a host restart: side-effecting tools are refused."},
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
	return ToolDefinition{Name: "exec", Description: b.String(), InputSchema: schema, OutputSchema: table.ResultSchema}
}

// writeMCPServers names the run's MCP servers with their tool counts, at
// most maxDescribedServers of them. Server identifiers are camelCase
// letters and digits the catalog derived from configured names, so they are
// safe in the description; MCP tool names, which the servers choose, never
// appear in it.
func (run *Run) writeMCPServers(b *strings.Builder) {
	servers := run.tab.Catalog.MCPServers()
	fmt.Fprintf(b, " MCP servers (%d): ", len(servers))
	for k, s := range servers {
		if k == maxDescribedServers {
			fmt.Fprintf(b, ", and %d more (`MCP.$api()` lists them all)", len(servers)-k)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		noun := " tools"
		if len(s.Tools) == 1 {
			noun = " tool"
		}
		b.WriteString("`MCP." + s.Identifier + "` (" + strconv.Itoa(len(s.Tools)) + noun + ")")
	}
	b.WriteString(".")
}
