package mcp

import (
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/tool"
)

// A request a server makes of its client belongs to the one scope with
// calls in flight on it; with none, or with two, it is refused, so one
// person's prompt never reaches another.
func TestRelayOwner(t *testing.T) {
	var f inflight
	if _, err := f.owner("docs"); err == nil || !strings.Contains(err.Error(), "outside any call") {
		t.Fatalf("no calls: %v", err)
	}
	a, b := tool.Scope{SessionID: "a"}, tool.Scope{SessionID: "b"}
	tokenA1, endA1 := f.begin(a)
	tokenA2, endA2 := f.begin(a)
	if tokenA1 == tokenA2 {
		t.Fatalf("two calls share the progress token %q", tokenA1)
	}
	if s, err := f.owner("docs"); err != nil || s != a {
		t.Fatalf("one scope: %v %v", s, err)
	}
	tokenB, endB := f.begin(b)
	if s, ok := f.byToken(tokenB); !ok || s != b {
		t.Fatalf("token of b's call: %v %v", s, ok)
	}
	if _, err := f.owner("docs"); err == nil || !strings.Contains(err.Error(), "several runs") {
		t.Fatalf("two scopes: %v", err)
	}
	endA1()
	endA2()
	if _, ok := f.byToken(tokenA1); ok {
		t.Fatal("an ended call's token still names a scope")
	}
	if s, err := f.owner("docs"); err != nil || s != b {
		t.Fatalf("after a's calls ended: %v %v", s, err)
	}
	endB()
	if _, err := f.owner("docs"); err == nil {
		t.Fatal("after every call ended")
	}
}
