package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Declaration-file limits. Lengths are UTF-16 units.
const (
	maxSummaryLines  = 12   // non-empty description lines in a JSDoc summary
	maxSummaryLine   = 100  // summary lines are wrapped at this width
	maxParamDoc      = 160  // per @param and inline field doc
	maxDefaultDoc    = 80   // a rendered default; longer ones are left out
	maxServerLabel   = 128  // the server name in the file comment
	maxDTSFields     = 64   // top-level input fields per tool
	maxDTSProps      = 32   // properties of a nested object type
	maxDTSDepth      = 4    // nesting of a field type
	maxDTSEnum       = 16   // enum literals
	maxDTSUnion      = 8    // anyOf/oneOf variants
	maxDTSType       = 1000 // one rendered field type
	maxDTSLiteral    = 96   // one literal type
	dtsIndent        = "  "
	mcpToolResultDTS = "type McpToolResult = { content?: unknown[]; structuredContent?: unknown; isError?: boolean; [key: string]: unknown };"
	mcpAPIHeaderDTS  = "type McpApiHeader = { kind: \"mcp_api\"; scope: \"root\" | \"server\" | \"tool\"; header: string; " +
		"servers?: Array<{ identifier: string; serverName: string; toolCount: number }>; " +
		"server?: { identifier: string; serverName: string }; " +
		"tools?: Array<{ method: string; path: string; name: string; description: string }>; " +
		"schemas?: Record<string, unknown>; note?: string };"
)

// mcpSearchHitDTS declares an MCP.$search hit ([MCPHit]).
const mcpSearchHitDTS = "type McpSearchHit = { path: string; server: string; name: string; method: string; id: string; " +
	"label?: string; description: string; source: \"mcp\"; sourceName: string; input: string };"

// maxDTSName bounds an exact name the declarations repeat; a longer one is
// still a property, and $api gives it.
const maxDTSName = 128

// renderIndex renders mcp/index.d.ts.
func (c *Catalog) renderIndex() string {
	var b strings.Builder
	b.WriteString("// MCP servers visible to this run. Each server's tools are declared in mcp/<server>.d.ts;\n")
	b.WriteString("// a server or tool is reached by its exact MCP name as well as by its camelCase identifier.\n")
	servers := c.mcp()
	for _, s := range servers {
		b.WriteString("/// <reference path=\"./" + s.Identifier + ".d.ts\" />\n")
	}
	b.WriteString(mcpSearchHitDTS + "\n")
	b.WriteString("declare const MCP: {\n")
	b.WriteString(dtsIndent + "/** List the visible MCP servers; MCP.<server>.$api() describes one server. */\n")
	b.WriteString(dtsIndent + "$api(): Promise<McpApiHeader>;\n")
	b.WriteString(dtsIndent + "/** Rank every server's tools against query, best first, as tools.search ranks catalog tools. */\n")
	b.WriteString(dtsIndent + "$search(query: string, options?: { limit?: number }): Promise<McpSearchHit[]>;\n")
	for _, s := range servers {
		b.WriteString(dtsIndent + "readonly " + s.Identifier + ": typeof MCP." + s.Identifier + ";\n")
		if s.Aliased && s.Name != s.Identifier && u16len(s.Name) <= maxDTSName {
			b.WriteString(dtsIndent + "readonly " + propertyName(s.Name) + ": typeof MCP." + s.Identifier + ";\n")
		}
	}
	b.WriteString("};\n")
	return b.String()
}

// renderServer renders the declarations of a server's tools. full adds the
// resources and prompts namespaces, as in mcp/<server>.d.ts.
func renderServer(s *MCPServer, tools []*MCPTool, full bool) string {
	var b strings.Builder
	noun := "tools"
	if len(s.Tools) == 1 {
		noun = "tool"
	}
	b.WriteString("// MCP server " + commentSafe(truncate16(jsonQuote(s.Name), maxServerLabel, "…")) +
		" as MCP." + s.Identifier + " (" + strconv.Itoa(len(s.Tools)) + " " + noun +
		"). Each call takes one input object and resolves to McpToolResult.\n")
	// One example of a tool by its exact name, the first whose name is not
	// its identifier; a server whose names all are identifiers needs none.
	for k := range s.Tools {
		if t := &s.Tools[k]; t.Aliased && t.Name != t.Identifier && u16len(t.Name) <= maxDTSName {
			b.WriteString("// A tool's exact MCP name reaches it too: " + s.CallPath(t) + " is MCP." + s.Identifier + "." + t.Identifier + ".\n")
			break
		}
	}
	b.WriteString(mcpAPIHeaderDTS + "\n")
	b.WriteString(mcpToolResultDTS + "\n")
	b.WriteString("declare namespace MCP." + s.Identifier + " {\n")
	b.WriteString(dtsIndent + "/** Return this TypeScript-style API header; { schema: true } adds the JSON input schemas. */\n")
	b.WriteString(dtsIndent + "function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;\n")
	for _, t := range tools {
		writeToolDecl(&b, t)
	}
	if full {
		b.WriteString(resourcesAndPromptsDTS)
	}
	b.WriteString("}\n")
	return b.String()
}

const resourcesAndPromptsDTS = `  namespace resources {
    /** List the server's resources. */
    function list(input?: { cursor?: string }): Promise<{ resources: Array<{ uri: string; name: string; title?: string; description?: string; mimeType?: string }>; nextCursor?: string }>;
    /** Read one resource by URI. */
    function read(input: { uri: string }): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
    /** List the server's resource templates: URIs with {variables} that read can fill in. */
    function templates(input?: { cursor?: string }): Promise<{ resourceTemplates: Array<{ uriTemplate: string; name: string; title?: string; description?: string; mimeType?: string }>; nextCursor?: string }>;
  }
  namespace prompts {
    /** List the server's prompts. */
    function list(input?: { cursor?: string }): Promise<{ prompts: Array<{ name: string; title?: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }>; nextCursor?: string }>;
    /** Get one prompt, filled in with its arguments. */
    function get(input: { name: string; arguments?: Record<string, string> }): Promise<{ description?: string; messages: Array<{ role: "user" | "assistant"; content: unknown }> }>;
  }
`

// dtsField is one top-level input field of a tool declaration.
type dtsField struct {
	key, name, typ, doc string
	required            bool
}

func writeToolDecl(b *strings.Builder, t *MCPTool) {
	v, _ := decodeJSON(t.InputSchema)
	m, _ := v.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	for _, r := range t.Required {
		if _, ok := props[r]; ok {
			required[r] = true
		}
	}
	keys := requiredFirst(props, required)
	omitted := 0
	if len(keys) > maxDTSFields {
		omitted = len(keys) - maxDTSFields
		keys = keys[:maxDTSFields]
	}
	fields := make([]dtsField, 0, len(keys))
	for _, k := range keys {
		pm, _ := props[k].(map[string]any)
		f := dtsField{key: k, name: propertyName(k), required: required[k], typ: dtsTypeOf(props[k])}
		desc, _ := pm["description"].(string)
		f.doc = truncate16(commentSafe(desc), maxParamDoc, "…")
		if d, has := pm["default"]; has {
			if raw, err := json.Marshal(d); err == nil && u16len(string(raw)) <= maxDefaultDoc {
				def := "Default: " + commentSafe(string(raw)) + "."
				if f.doc != "" {
					f.doc += " " + def
				} else {
					f.doc = def
				}
			}
		}
		fields = append(fields, f)
	}

	// JSDoc: summary lines, the exact name when camelCase does not give the
	// identifier (a clash or a reserved word renamed it) or it is no
	// property, then @param lines for documented fields. Names camelCase
	// maps to the identifier are left out to keep the files small: the
	// file's header says they work too. In a block comment "*/" would end
	// the comment; as "*\/" the JSON string is the same.
	doc := summaryLines(t.Description)
	if (!t.Aliased || t.Identifier != toIdentifier(t.Name, "tool")) && u16len(t.Name) <= maxDTSName {
		tag := "@mcpName " + strings.ReplaceAll(jsonQuote(t.Name), "*/", "*\\/")
		if !t.Aliased {
			tag += " (not a property: call " + t.Identifier + ")"
		}
		doc = append(doc, tag)
	}
	for _, f := range fields {
		desc, _ := propSchema(props, f.key)["description"].(string)
		desc = truncate16(commentSafe(desc), maxParamDoc, "…")
		if desc == "" {
			continue
		}
		opt := ""
		if !f.required {
			opt = "?"
		}
		doc = append(doc, "@param "+commentSafe(f.name)+opt+" "+desc)
	}
	result := "McpToolResult"
	if o := t.Observed; o != nil {
		doc = append(doc, fmt.Sprintf("@returns observed in %s: %s is %s", plural(o.Calls, "call"), o.Of, o.Type))
		if o.Of == "structuredContent" {
			result = "McpToolResult & { structuredContent: " + o.Type + " }"
		}
	}
	ind := dtsIndent
	if len(doc) > 0 {
		b.WriteString(ind + "/**\n")
		for _, line := range doc {
			b.WriteString(ind + " * " + line + "\n")
		}
		b.WriteString(ind + " */\n")
	}

	b.WriteString(ind + "function " + t.Identifier + "(")
	switch {
	case len(fields) == 0:
		if ap, ok := m["additionalProperties"]; ok && ap != false {
			b.WriteString("input?: Record<string, unknown>")
		} else {
			b.WriteString("input?: Record<string, never>")
		}
	default:
		if len(required) == 0 {
			b.WriteString("input?: {\n")
		} else {
			b.WriteString("input: {\n")
		}
		for _, f := range fields {
			if f.doc != "" {
				b.WriteString(ind + ind + "/** " + f.doc + " */\n")
			}
			opt := "?"
			if f.required {
				opt = ""
			}
			b.WriteString(ind + ind + f.name + opt + ": " + f.typ + ";\n")
		}
		if omitted > 0 {
			b.WriteString(ind + ind + "/** " + strconv.Itoa(omitted) + " more properties: see $api(\"" + t.Identifier + "\", { schema: true }). */\n")
			b.WriteString(ind + ind + "[key: string]: unknown;\n")
		}
		b.WriteString(ind + "}")
	}
	b.WriteString("): Promise<" + result + ">;\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func propSchema(props map[string]any, key string) map[string]any {
	m, _ := props[key].(map[string]any)
	return m
}

// propertyName renders an object key: as is when it is an identifier,
// JSON-quoted otherwise.
func propertyName(k string) string {
	if isIdentifier(k) {
		return k
	}
	return jsonQuote(k)
}

// dtsTypeOf renders a JSON Schema as a TypeScript type for a declaration
// file, bounded in depth, width and length. It never emits a comment.
func dtsTypeOf(v any) string {
	t := dtsType(v, 0)
	if u16len(t) > maxDTSType {
		return unknownType
	}
	return t
}

func dtsType(v any, depth int) string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 || depth > maxDTSDepth {
		return unknownType
	}
	t := dtsBase(m, depth)
	if m["nullable"] == true && t != unknownType && t != "null" {
		t += " | null"
	}
	return t
}

func dtsBase(m map[string]any, depth int) string {
	for _, key := range []string{"anyOf", "oneOf"} {
		if list, ok := m[key].([]any); ok && len(list) > 0 {
			if len(list) > maxDTSUnion {
				return unknownType
			}
			var parts []string
			for _, v := range list {
				parts = appendUnique(parts, dtsType(v, depth+1))
			}
			return joinDTSUnion(parts)
		}
	}
	if c, has := m["const"]; has {
		text, _, ok := literal(c)
		if !ok || u16len(text) > maxDTSLiteral {
			return unknownType
		}
		return text
	}
	if list, ok := m["enum"].([]any); ok && len(list) > 0 {
		if len(list) > maxDTSEnum {
			return widen(list)
		}
		var parts []string
		for _, v := range list {
			text, _, ok := literal(v)
			if !ok || u16len(text) > maxDTSLiteral {
				return widen(list)
			}
			parts = appendUnique(parts, text)
		}
		return strings.Join(parts, " | ")
	}
	switch tt := m["type"].(type) {
	case string:
		return dtsTyped(tt, m, depth)
	case []any:
		// Each distinct name renders once, as in typeNames: repeats would
		// multiply the work at every level. A name that is no string renders
		// as unknown, like the empty name.
		var parts []string
		seen := map[string]bool{}
		for _, one := range tt {
			name, _ := one.(string)
			if !seen[name] {
				seen[name] = true
				parts = appendUnique(parts, dtsTyped(name, m, depth))
			}
		}
		return joinDTSUnion(parts)
	case nil:
		if _, has := m["properties"]; has {
			return dtsTyped("object", m, depth)
		}
		if _, has := m["items"]; has {
			return dtsTyped("array", m, depth)
		}
	}
	return unknownType
}

func joinDTSUnion(parts []string) string {
	if len(parts) == 0 || slices.Contains(parts, unknownType) {
		return unknownType
	}
	return strings.Join(parts, " | ")
}

// widen names the common primitive type of enum values, or unknown.
func widen(values []any) string {
	kind := ""
	for _, v := range values {
		_, k, ok := literal(v)
		if !ok || (kind != "" && k != kind) || k == "null" {
			return unknownType
		}
		kind = k
	}
	return kind
}

func dtsTyped(t string, m map[string]any, depth int) string {
	switch t {
	case "string", "boolean", "null":
		return t
	case "integer", "number":
		return "number"
	case "array":
		item := dtsType(m["items"], depth+1)
		if strings.Contains(item, " | ") {
			item = "(" + item + ")"
		}
		return item + "[]"
	case "object":
		props, _ := m["properties"].(map[string]any)
		if len(props) == 0 {
			return "Record<string, unknown>"
		}
		required := map[string]bool{}
		if list, ok := m["required"].([]any); ok {
			for _, r := range list {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		}
		keys := requiredFirst(props, required)
		var parts []string
		for k, key := range keys {
			if k == maxDTSProps {
				parts = append(parts, "[key: string]: unknown")
				break
			}
			opt := "?"
			if required[key] {
				opt = ""
			}
			parts = append(parts, propertyName(key)+opt+": "+dtsType(props[key], depth+1))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return unknownType
}

// summaryLines turns a description into at most 12 non-empty JSDoc lines,
// each made comment-safe and wrapped at about 100 UTF-16 units. A description
// that does not fit ends with "…".
func summaryLines(desc string) []string {
	var out []string
	for _, line := range splitLines(desc) {
		line = commentSafe(line)
		for line != "" {
			if len(out) == maxSummaryLines {
				out[len(out)-1] = truncate16(out[len(out)-1], maxSummaryLine-1, "") + "…"
				return out
			}
			head, rest := wrapAt(line, maxSummaryLine)
			out = append(out, head)
			line = rest
		}
	}
	return out
}

// wrapAt splits line after at most width UTF-16 units, at the last space if
// there is one, and never inside a rune.
func wrapAt(line string, width int) (head, rest string) {
	if u16len(line) <= width {
		return line, ""
	}
	cut := len(truncate16(line, width, ""))
	if sp := strings.LastIndexByte(line[:cut], ' '); sp > 0 {
		return line[:sp], line[sp+1:]
	}
	return line[:cut], line[cut:]
}

// requiredFirst returns the property names of props, required ones first,
// each group in UTF-16 order, as OpenClaw's Code Mode sorts them.
func requiredFirst(props map[string]any, required map[string]bool) []string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if required[a] != required[b] {
			if required[a] {
				return -1
			}
			return 1
		}
		return compare16(a, b)
	})
	return keys
}
