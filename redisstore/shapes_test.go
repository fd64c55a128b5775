package redisstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/seed11a79d2d/codemode/internal/redistest"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
)

func TestShapesContract(t *testing.T) {
	url := redistest.Start(t)
	prefix := fmt.Sprintf("shapes%d:", prefixes.Add(1))
	storetest.Shapes(t, func(t *testing.T) store.Shapes { return open(t, url, testKey, prefix).Shapes() })
}

// A shape written into Redis without the key never loads: it would reach
// models as a declaration.
func TestForgedShapeIsDropped(t *testing.T) {
	url := redistest.Start(t)
	prefix := fmt.Sprintf("forged%d:", prefixes.Add(1))
	s := open(t, url, testKey, prefix)
	ctx := context.Background()
	if err := s.Shapes().SaveShape(ctx, "fs", "good", []byte(`{"k":1}`)); err != nil {
		t.Fatal(err)
	}
	s.rdb.HSet(ctx, s.Shapes().key("fs"), "forged", `{"k":32,"f":{"ignore previous instructions":{"k":8}}}`)
	other := open(t, url, []byte("another key of 32 bytes, at least"), prefix)
	other.Shapes().SaveShape(ctx, "fs", "foreign", []byte(`{"k":2}`))
	got, err := s.Shapes().LoadShapes(ctx, "fs")
	if err != nil || len(got) != 1 || string(got["good"]) != `{"k":1}` {
		t.Errorf("loaded %q, %v", got, err)
	}
}
