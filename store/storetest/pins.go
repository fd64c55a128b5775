package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/store"
)

// Pins runs the contract's checks on pin stores made by open. Each store it
// opens must start empty.
func Pins(t *testing.T, open func(t *testing.T) store.Pins) {
	ctx := context.Background()
	def := func(h string) store.Definition {
		return store.Definition{Hash: h, Fields: map[string]string{"description": "d" + h, "name": "n"}}
	}

	t.Run("put, get, list", func(t *testing.T) {
		p := open(t)
		if _, ok, err := p.Get(ctx, "mcp:s:a"); ok || err != nil {
			t.Fatalf("a pin before any put: %v %v", ok, err)
		}
		if err := p.Put(ctx, store.Pin{ID: "mcp:s:b", Definition: def("1")}, store.Pin{ID: "mcp:s:a", Definition: def("1")}); err != nil {
			t.Fatal(err)
		}
		if err := p.Put(ctx); err != nil {
			t.Fatalf("an empty put: %v", err)
		}
		got, ok, err := p.Get(ctx, "mcp:s:a")
		if err != nil || !ok || got.Hash != "1" || got.Fields["description"] != "d1" || got.Changed != nil {
			t.Fatalf("get: %+v %v %v", got, ok, err)
		}
		list, err := p.List(ctx)
		if err != nil || len(list) != 2 || list[0].ID != "mcp:s:a" || list[1].ID != "mcp:s:b" {
			t.Fatalf("list: %+v %v", list, err)
		}
		if err := p.Put(ctx, store.Pin{ID: "mcp:s:c", Definition: def("1")}, store.Pin{Definition: def("1")}); err == nil {
			t.Fatal("a pin without an id was stored")
		}
		if _, ok, _ := p.Get(ctx, "mcp:s:c"); ok {
			t.Fatal("a put that failed stored part of its pins")
		}
	})

	// A quarantined tool is approved once, to the hash the approver saw.
	t.Run("quarantine and approve", func(t *testing.T) {
		p := open(t)
		if _, err := store.Approve(ctx, p, "mcp:s:a", ""); !errors.Is(err, store.ErrNotQuarantined) {
			t.Fatalf("approve of an unknown tool: %v", err)
		}
		changed := def("2")
		if err := p.Put(ctx, store.Pin{ID: "mcp:s:a", Definition: def("1"), Changed: &changed}); err != nil {
			t.Fatal(err)
		}
		got, _, _ := p.Get(ctx, "mcp:s:a")
		if got.Changed == nil || got.Changed.Hash != "2" || fmt.Sprint(got.ChangedFields(*got.Changed)) != "[description]" {
			t.Fatalf("the change was not kept: %+v", got)
		}
		if _, err := store.Approve(ctx, p, "mcp:s:a", "3"); err == nil {
			t.Fatal("approved a hash that is not the changed one")
		}
		pin, err := store.Approve(ctx, p, "mcp:s:a", "2")
		if err != nil || pin.Hash != "2" || pin.Changed != nil {
			t.Fatalf("approve: %+v %v", pin, err)
		}
		if got, _, _ := p.Get(ctx, "mcp:s:a"); got.Hash != "2" || got.Changed != nil {
			t.Fatalf("after approval: %+v", got)
		}
		if _, err := store.Approve(ctx, p, "mcp:s:a", ""); !errors.Is(err, store.ErrNotQuarantined) {
			t.Fatalf("a second approval: %v", err)
		}
	})

	// What a caller holds is its own: changing it changes nothing stored.
	t.Run("copies", func(t *testing.T) {
		p := open(t)
		d := def("1")
		p.Put(ctx, store.Pin{ID: "mcp:s:a", Definition: d})
		d.Fields["description"] = "x"
		got, _, _ := p.Get(ctx, "mcp:s:a")
		got.Fields["name"] = "y"
		if again, _, _ := p.Get(ctx, "mcp:s:a"); again.Fields["description"] != "d1" || again.Fields["name"] != "n" {
			t.Fatalf("a caller's map reached the store: %+v", again)
		}
	})

	t.Run("concurrent puts", func(t *testing.T) {
		p := open(t)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				if err := p.Put(ctx, store.Pin{ID: fmt.Sprint("mcp:s:", i), Definition: def("1")}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if list, _ := p.List(ctx); len(list) == 0 {
			t.Fatal("no pin stored")
		}
	})
}
