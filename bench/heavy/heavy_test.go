package heavy

import "testing"

func TestEveryCellIsThere(t *testing.T) {
	for _, n := range Names {
		if src, ok := Source(n); !ok || len(src) == 0 {
			t.Errorf("no cell %s", n)
		}
	}
	for _, bad := range []string{"", "../heavy", "nope", "heavy.go"} {
		if _, ok := Source(bad); ok {
			t.Errorf("Source(%q) found a cell", bad)
		}
	}
}
