package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/store"
)

// Sessions runs the contract's checks on session stores made by open. Each
// store it opens must start empty.
func Sessions(t *testing.T, open func(t *testing.T) store.Sessions) {
	ctx := context.Background()
	a, b := store.Session{Key: "k", ID: "a"}, store.Session{Key: "k", ID: "b"}

	t.Run("store, load, delete", func(t *testing.T) {
		s := open(t)
		if _, ok, err := s.Load(ctx, a, "n"); ok || err != nil {
			t.Fatalf("a value before any store: %v %v", ok, err)
		}
		if err := s.Store(ctx, a, "n", json.RawMessage(`{"x":1}`)); err != nil {
			t.Fatal(err)
		}
		if v, ok, err := s.Load(ctx, a, "n"); err != nil || !ok || string(v) != `{"x":1}` {
			t.Fatalf("load: %s %v %v", v, ok, err)
		}
		if _, ok, _ := s.Load(ctx, b, "n"); ok {
			t.Fatal("another session sees the value")
		}
		if _, ok, _ := s.Load(ctx, store.Session{Key: "k2", ID: "a"}, "n"); ok {
			t.Fatal("a session of another key sees the value")
		}
		if err := s.Store(ctx, a, "n", nil); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.Load(ctx, a, "n"); ok {
			t.Fatal("a deleted value is still there")
		}
	})

	// Every store fills at the same point: what EntryCost counts. A session
	// filled to the byte takes nothing more; a replaced value frees what it
	// held.
	t.Run("the session bound", func(t *testing.T) {
		s := open(t)
		value := func(n int) json.RawMessage { return json.RawMessage(`"` + strings.Repeat("v", n-2) + `"`) }
		big := value(store.MaxStateValueBytes)
		held := 0
		for i := 0; held+store.EntryCost(fmt.Sprint("k", i), big) <= store.MaxStateSessionBytes; i++ {
			if err := s.Store(ctx, a, fmt.Sprint("k", i), big); err != nil {
				t.Fatalf("value %d, %d bytes held: %v", i, held, err)
			}
			held += store.EntryCost(fmt.Sprint("k", i), big)
		}
		last := value(store.MaxStateSessionBytes - held - store.EntryCost("last", nil))
		if err := s.Store(ctx, a, "last", last); err != nil {
			t.Fatalf("the value that fills the session to the byte: %v", err)
		}
		if err := s.Store(ctx, a, "x", json.RawMessage(`1`)); !errors.Is(err, store.ErrSessionFull) {
			t.Fatalf("a store past the bound: %v", err)
		}
		if err := s.Store(ctx, b, "x", json.RawMessage(`1`)); err != nil {
			t.Fatalf("another session is not full: %v", err)
		}
		for range 3 {
			if err := s.Store(ctx, a, "k0", big); err != nil {
				t.Fatalf("replacing a value with one of its size: %v", err)
			}
		}
		if err := s.Store(ctx, a, "k0", nil); err != nil {
			t.Fatal(err)
		}
		if err := s.Store(ctx, a, "k0", big); err != nil {
			t.Fatalf("after a delete: %v", err)
		}
	})

	t.Run("a dropped session stays dropped", func(t *testing.T) {
		s := open(t)
		s.Store(ctx, a, "v", json.RawMessage(`1`))
		s.Store(ctx, b, "v", json.RawMessage(`2`))
		if err := s.Drop(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.Load(ctx, a, "v"); ok {
			t.Fatal("a dropped session's value is still there")
		}
		if err := s.Store(ctx, a, "late", json.RawMessage(`1`)); !errors.Is(err, store.ErrSessionEnded) {
			t.Fatalf("a store after the drop: %v", err)
		}
		if v, ok, _ := s.Load(ctx, b, "v"); !ok || string(v) != "2" {
			t.Fatalf("another session lost its value: %s %v", v, ok)
		}
	})
}
