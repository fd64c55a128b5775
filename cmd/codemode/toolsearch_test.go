package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeToolSearch drives Tool Search's four tools through a real
// codemode serve process with a Go SDK client, over the demo catalog and a
// real MCP server (server-memory over stdio).
func TestServeToolSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	node, modules := peers(t)
	bin := buildCommand(t)
	memory := filepath.Join(modules, "@modelcontextprotocol", "server-memory", "dist", "index.js")
	server, _ := json.Marshal(map[string]any{"command": node, "args": []string{memory},
		"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}})
	cfg := writeFile(t, "codemode.json5", `{
		tools: { toolSearch: { enabled: true, timeoutMs: 5000 } },
		plugins: { demo: true },
		mcpServers: { memory: `+string(server)+` },
	}`)
	example, err := os.ReadFile("../../examples/toolsearch.js")
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := connectServe(t, ctx, sdk.NewClient(&sdk.Implementation{Name: "model", Version: "1"}, nil), bin, "--config", cfg)

	// The memory server's tools arrive as it connects.
	var visible []string
	for {
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		visible = visible[:0]
		for _, tool := range list.Tools {
			visible = append(visible, tool.Name)
		}
		if res := call(t, ctx, cs, "tool_search", map[string]any{"query": "entities"}); strings.Contains(res.text, "mcp:memory:") || ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if want := []string{"chart_image", "tool_call", "tool_describe", "tool_search", "tool_search_code"}; !slices.Equal(sorted(visible), want) {
		t.Fatalf("visible tools %v, want %v", visible, want)
	}

	hits := call(t, ctx, cs, "tool_search", map[string]any{"query": "create entities", "limit": 3})
	if hits.isError || !strings.Contains(hits.text, `"id":"mcp:memory:create_entities"`) {
		t.Fatalf("tool_search: %+v", hits)
	}
	described := call(t, ctx, cs, "tool_describe", map[string]any{"id": "mcp:memory:create_entities"})
	if described.isError || !strings.Contains(described.text, `"parameters":`) || !strings.Contains(described.text, "entities") {
		t.Fatalf("tool_describe: %+v", described)
	}
	created := call(t, ctx, cs, "tool_call", map[string]any{"id": "mcp:memory:create_entities", "input": map[string]any{
		"entities": []any{map[string]any{"name": "SHP-101", "entityType": "shipment", "observations": []string{"unpaid"}}}}})
	if created.isError || !strings.Contains(created.text, "SHP-101") {
		t.Fatalf("tool_call (MCP): %+v", created)
	}
	listed := call(t, ctx, cs, "tool_call", map[string]any{"id": "openclaw:demo:shipping_list"})
	if listed.isError || !strings.Contains(listed.text, `"tons"`) {
		t.Fatalf("tool_call (demo): %+v", listed)
	}
	unknown := call(t, ctx, cs, "tool_call", map[string]any{"id": "create_entitys"})
	if !unknown.isError || !strings.Contains(unknown.text, "Did you mean: create_entities") {
		t.Fatalf("tool_call of a typo: %+v", unknown)
	}

	// tool_search_code: the example, then a body that reads back what
	// tool_call wrote through the memory server.
	ran := call(t, ctx, cs, "tool_search_code", map[string]any{"code": string(example)})
	if ran.isError || !strings.Contains(ran.text, `"unpaid":["SHP-102","SHP-103",`) || !strings.Contains(ran.text, `"found":true`) {
		t.Fatalf("tool_search_code example: %+v", ran)
	}
	graph := call(t, ctx, cs, "tool_search_code", map[string]any{"code": `
		const g = await tools.callValue("mcp:memory:read_graph", {});
		return g.structuredContent?.entities?.map(e => e.name) ?? JSON.parse(g.content[0].text).entities.map(e => e.name);`})
	if graph.isError || !strings.Contains(graph.text, `"value":["SHP-101"]`) {
		t.Fatalf("tool_search_code over MCP: %+v", graph)
	}
	exec := call(t, ctx, cs, "exec", map[string]any{"code": "return 1"})
	if !exec.isError {
		t.Fatalf("exec answered in Tool Search mode: %+v", exec)
	}
}

type callResult struct {
	isError bool
	text    string
}

// call calls a tool and joins its text content with its structured content.
func call(t *testing.T, ctx context.Context, cs *sdk.ClientSession, name string, args map[string]any) callResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return callResult{isError: true, text: err.Error()}
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.StructuredContent != nil {
		s, _ := json.Marshal(res.StructuredContent)
		b.Write(s)
	}
	return callResult{isError: res.IsError, text: b.String()}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
