package redisstore

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/seed11a79d2d/codemode/internal/redistest"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
)

func TestPins(t *testing.T) {
	url := redistest.Start(t)
	storetest.Pins(t, func(t *testing.T) store.Pins { return open(t, url, testKey, "").Pins() })
}

// A pin written to Redis without the key (to approve a changed tool behind
// the operator's back) fails its check: an error, not a pin.
func TestPinsForged(t *testing.T) {
	url := redistest.Start(t)
	ctx := context.Background()
	p := open(t, url, testKey, "forge:").Pins()
	if err := p.Put(ctx, store.Pin{ID: "mcp:s:t", Definition: store.Definition{Hash: "h1"}}); err != nil {
		t.Fatal(err)
	}
	opt, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	rdb.HSet(ctx, "forge:pins", "mcp:s:t", `{"hash":"h2"}`)
	if _, _, err := p.Get(ctx, "mcp:s:t"); err == nil {
		t.Fatal("a forged pin was read")
	}
	if _, err := p.List(ctx); err == nil {
		t.Fatal("a forged pin was listed")
	}
	// Another key signs other pins.
	other := open(t, url, []byte("another-key-of-thirty-two-bytes-or-more"), "forge2:").Pins()
	other.Put(ctx, store.Pin{ID: "mcp:s:t", Definition: store.Definition{Hash: "h3"}})
	v, _ := rdb.HGet(ctx, "forge2:pins", "mcp:s:t").Result()
	rdb.HSet(ctx, "forge:pins", "mcp:s:t", v)
	if _, _, err := p.Get(ctx, "mcp:s:t"); err == nil {
		t.Fatal("a pin signed with another key was read")
	}
}
