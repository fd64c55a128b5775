package catalog

import (
	"strings"
	"testing"
)

// The description's example query finds a tool of the catalog, prefers one
// that takes {} and keeps to a few short words.
func TestSearchExample(t *testing.T) {
	for _, c := range []struct {
		tools []Tool
		query string
		empty bool
	}{
		{[]Tool{{Name: "issue-create", InputSchema: schema(`{"type":"object","properties":{"t":{"type":"string"}}}`)},
			{Name: "shipping_list", Origin: OriginBundledPlugin, Owner: "p", InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`)}},
			"shipping list", true},
		{[]Tool{{Name: "issue-create", InputSchema: schema(`{"type":"object","properties":{"t":{"type":"string"}}}`)}}, "issue create", false},
		{[]Tool{{Name: strings.Repeat("x", 100) + "_a_b_c_d"}}, strings.Repeat("x", 24) + " a b", false},
	} {
		c2 := mustBuild(t, c.tools, nil)
		q, empty, ok := c2.SearchExample()
		if !ok || q != c.query || empty != c.empty {
			t.Errorf("SearchExample() = %q, %v, %v; want %q, %v", q, empty, ok, c.query, c.empty)
		}
		if hits, _ := c2.Search(q, 1); len(hits) == 0 {
			t.Errorf("%q finds nothing", q)
		}
	}
	for _, tools := range [][]Tool{
		{{Name: "x", Origin: OriginMCP, Owner: "s"}, {Name: "pick", Origin: OriginClient}},
		{{Name: "日本", Origin: OriginCore}},
	} {
		if q, _, ok := mustBuild(t, tools, nil).SearchExample(); ok {
			t.Errorf("an example %q without a core or plugin tool name", q)
		}
	}
}
