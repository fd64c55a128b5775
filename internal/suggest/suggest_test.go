package suggest

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	known := []string{"enabled", "timeoutMs", "mcpServers", "tools", "maxOutputBytes"}
	for key, want := range map[string]string{
		"mcpservers": "mcpServers", // case
		"timeout":    "timeoutMs",  // the unit left off
		"enabeld":    "enabled",    // a transposition
		"tool":       "tools",      // a letter short
		"colour":     "",           // near nothing
		"x":          "",           // too short to guess from
		"max":        "",           // a prefix too short to mean one key
	} {
		if got := Closest(key, slices.Values(known)); got != want {
			t.Errorf("Closest(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"enabled", "enabeld", 2}, {"tools", "tool", 1}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
