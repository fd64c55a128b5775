package storetest

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/store"
)

// Shapes checks the contract of a [store.Shapes]: a saved shape loads back
// in its group only and through a second handle, a save replaces, and a
// group never saved loads empty.
func Shapes(t *testing.T, open func(t *testing.T) store.Shapes) {
	ctx := context.Background()
	s := open(t)
	if got, err := s.LoadShapes(ctx, "none"); err != nil || len(got) != 0 {
		t.Fatalf("an empty group: %v, %v", got, err)
	}
	for _, save := range []struct{ group, key, shape string }{
		{"fs", "mcp:fs:list@1", `{"k":32}`},
		{"fs", "mcp:fs:read@2", `{"k":8}`},
		{"git", "mcp:git:log@3", `{"k":16}`},
		{"fs", "mcp:fs:list@1", `{"k":33}`},
	} {
		if err := s.SaveShape(ctx, save.group, save.key, []byte(save.shape)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LoadShapes(ctx, "fs")
	if err != nil || len(got) != 2 || string(got["mcp:fs:list@1"]) != `{"k":33}` || string(got["mcp:fs:read@2"]) != `{"k":8}` {
		t.Errorf("group fs: %q, %v", got, err)
	}
	if got, _ := open(t).LoadShapes(ctx, "git"); len(got) != 1 {
		t.Errorf("group git from a second handle: %q", got)
	}
}
