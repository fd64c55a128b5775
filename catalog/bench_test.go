package catalog

import (
	"fmt"
	"testing"
)

var benchVerbs = []string{"list", "get", "create", "update", "delete", "search", "send", "read", "sync", "export"}
var benchNouns = []string{"issue", "file", "message", "calendar_event", "shipment", "invoice", "user", "page", "record", "build"}

// benchTools returns n tools shaped like a large real deployment: 70% core
// and plugin tools with distinct input schemas (a third with an output
// schema), 20% MCP tools over 12 servers, 10% client tools.
func benchTools(n int) []Tool {
	tools := make([]Tool, 0, n)
	for i := range n {
		verb, noun := benchVerbs[i%len(benchVerbs)], benchNouns[(i/len(benchVerbs))%len(benchNouns)]
		name := fmt.Sprintf("%s_%s_%d", verb, noun, i)
		in := fmt.Sprintf(`{"type":"object","properties":{"%s_id":{"type":"string","description":"Which %s."},"limit":{"type":"integer","minimum":1,"maximum":%d},"mode":{"type":"string","enum":["fast","full"]},"tags":{"type":"array","items":{"type":"string"}}},"required":["%s_id"],"additionalProperties":false}`,
			noun, noun, 10+i%90, noun)
		t := Tool{
			Name: name, Label: fmt.Sprintf("%s %s", verb, noun),
			Description: fmt.Sprintf("%s a %s in the workspace. Returns the matching %s records with ids, titles and timestamps; tool %d.", verb, noun, noun, i),
			InputSchema: []byte(in),
		}
		switch r := i % 10; {
		case r < 2:
			t.Origin = OriginCore
		case r < 5:
			t.Origin, t.Owner = OriginBundledPlugin, fmt.Sprintf("plugin-%d", i%17)
		case r < 7:
			t.Origin, t.Owner = OriginExternalPlugin, fmt.Sprintf("ext-%d", i%23)
		case r < 9:
			t.Origin, t.Owner = OriginMCP, fmt.Sprintf("server-%d", i%12)
		default:
			t.Origin, t.Owner = OriginClient, "app"
		}
		if i%3 == 0 && t.Origin < OriginMCP {
			t.OutputSchema = []byte(fmt.Sprintf(`{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"%s":{"type":"number"}},"required":["id"],"additionalProperties":false}}`, noun))
		}
		tools = append(tools, t)
	}
	return tools
}

// BenchmarkCatalogBuild10k measures Build for 10,000 tools (target: 50 ms).
func BenchmarkCatalogBuild10k(b *testing.B) {
	tools := benchTools(10000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(tools, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCatalogSearch10k measures one search over 10,000 tools
// (target: 1 ms).
func BenchmarkCatalogSearch10k(b *testing.B) {
	c, err := Build(benchTools(10000), nil)
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"search issue", "create calendar event", "shipment", "list_user_42", "records timestamps", ""}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := c.Search(queries[i%len(queries)], 0); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCatalogQuickIndex10k measures the quick index of 10,000 tools.
func BenchmarkCatalogQuickIndex10k(b *testing.B) {
	c, err := Build(benchTools(10000), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = c.buildQuickIndex()
	}
}
