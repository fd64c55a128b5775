package catalog

import (
	"errors"
	"strings"
	"testing"
)

// Tool Search's view holds MCP entries too, ranked and resolved like the
// others; the guest view is unchanged.
func TestEveryView(t *testing.T) {
	c := mustBuild(t, mixedTools(), nil)
	hits, err := c.SearchEvery("issue", 0)
	if err != nil || len(hits) != 1 || hits[0].ID != "mcp:github:create_issue" || hits[0].Input != "{ title: string }" {
		t.Fatalf("SearchEvery: %v %+v", err, hits)
	}
	if guest, _ := c.Search("issue", 0); len(guest) != 0 {
		t.Fatalf("Search now sees MCP entries: %+v", guest)
	}
	if all, _ := c.SearchEvery("", 50); len(all) != c.Len() {
		t.Fatalf("an empty query ranks %d of %d entries", len(all), c.Len())
	}
	for _, id := range []string{"mcp:github:create_issue", "create_issue", "select_file"} {
		if _, err := c.ResolveEvery(id, "Use tool_search."); err != nil {
			t.Errorf("ResolveEvery(%q): %v", id, err)
		}
	}
	_, err = c.ResolveEvery("create_isue", "Use tool_search.")
	if !errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "Did you mean: create_issue?") || !strings.HasSuffix(err.Error(), " Use tool_search.") {
		t.Fatalf("typo: %v", err)
	}
	for _, name := range []string{"tool_search", "tool_call", "computer"} {
		if _, err := c.ResolveEvery(name, ""); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("%s resolved: %v", name, err)
		}
	}
	if _, err := c.SearchEvery("x", -1); !errors.Is(err, ErrInvalidLimit) {
		t.Fatalf("limit: %v", err)
	}
}
