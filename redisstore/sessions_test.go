package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/seed11a79d2d/codemode/internal/redistest"
	"github.com/seed11a79d2d/codemode/store"
)

func TestSessions(t *testing.T) {
	url := redistest.Start(t)
	ctx := context.Background()
	st := open(t, url, testKey, "").Sessions()
	a, b := store.Session{Key: "k", ID: "a"}, store.Session{Key: "k", ID: "b"}

	if err := st.Store(ctx, a, "n", json.RawMessage(`{"x":1}`)); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := st.Load(ctx, a, "n"); err != nil || !ok || string(v) != `{"x":1}` {
		t.Fatalf("load: %s %v %v", v, ok, err)
	}
	if _, ok, _ := st.Load(ctx, b, "n"); ok {
		t.Fatal("another session sees the value")
	}
	if err := st.Store(ctx, a, "n", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.Load(ctx, a, "n"); ok {
		t.Fatal("a deleted value is still there")
	}

	// The bound counts as the memory store counts: replacing a value frees
	// the old one's bytes, and past the bound a store fails.
	big := json.RawMessage(`"` + strings.Repeat("a", store.MaxStateValueBytes-2) + `"`)
	for i := range 3 {
		if err := st.Store(ctx, a, "big", big); err != nil {
			t.Fatalf("replace %d: %v", i, err)
		}
	}
	for _, k := range []string{"b1", "b2"} {
		if err := st.Store(ctx, a, k, big); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	if err := st.Store(ctx, a, "b3", big); !errors.Is(err, store.ErrSessionFull) {
		t.Fatalf("past the bound: %v", err)
	}
	st.Store(ctx, a, "b2", nil)
	if err := st.Store(ctx, a, "b3", big); err != nil {
		t.Fatalf("after a delete: %v", err)
	}

	// A changed value is refused, not handed to a cell.
	opt, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	st.Store(ctx, b, "v", json.RawMessage(`"real"`))
	values, _, _ := st.keys(b)
	raw := rdb.HGet(ctx, values, "v").Val()
	rdb.HSet(ctx, values, "v", strings.Replace(raw, "real", "fake", 1))
	if _, _, err := st.Load(ctx, b, "v"); err == nil {
		t.Fatal("a changed value loaded")
	}
	rdb.HSet(ctx, values, "w", raw) // moved to another key
	if _, _, err := st.Load(ctx, b, "w"); err == nil {
		t.Fatal("a value moved to another key loaded")
	}

	// An ended session forgets its values and refuses stores for a while.
	if err := st.Drop(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.Load(ctx, a, "big"); ok {
		t.Fatal("a dropped session's value is still there")
	}
	if err := st.Store(ctx, a, "late", json.RawMessage(`1`)); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("store after drop: %v", err)
	}
}
