package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/seed11a79d2d/codemode/store"
)

// Pins is a [store.Pins] in the same Redis: the pinned tool definitions
// every replica checks, and `codemode tools approve` changes. Pins are
// signed like runs, so that a write to Redis without the key cannot
// approve a changed tool; they do not expire.
type Pins struct{ s *Store }

// Pins returns the store's tool pins.
func (s *Store) Pins() *Pins { return &Pins{s} }

var _ store.Pins = (*Pins)(nil)

// rolePin binds a pin's signature to its tool id.
const rolePin = "pin"

func (x *Pins) key() string { return x.s.prefix + "pins" }

func (x *Pins) Get(ctx context.Context, id string) (store.Pin, bool, error) {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	v, err := x.s.rdb.HGet(ctx, x.key(), id).Result()
	if err == redis.Nil {
		return store.Pin{}, false, nil
	}
	if err != nil {
		return store.Pin{}, false, fmt.Errorf("pin store: %w", x.s.fail(ctx, err))
	}
	p, err := x.decode(id, v)
	return p, err == nil, err
}

func (x *Pins) decode(id, v string) (store.Pin, error) {
	body, err := x.s.open(rolePin, id, []byte(v))
	var p store.Pin
	if err == nil {
		err = json.Unmarshal(body, &p)
	}
	if err != nil {
		// A pin that fails its check is an error, never "no pin": that would
		// pin whatever the server says now.
		return store.Pin{}, fmt.Errorf("pin store: the pin of %q %w", id, errSignature)
	}
	p.ID = id
	return p, nil
}

func (x *Pins) Put(ctx context.Context, pins ...store.Pin) error {
	if len(pins) == 0 {
		return nil
	}
	fields := make([]any, 0, 2*len(pins))
	for _, p := range pins {
		if p.ID == "" {
			return fmt.Errorf("pin store: a pin needs an id")
		}
		body, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("pin store: %w", err)
		}
		fields = append(fields, p.ID, x.s.sign(rolePin, p.ID, body))
	}
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	if err := x.s.rdb.HSet(ctx, x.key(), fields...).Err(); err != nil {
		return fmt.Errorf("pin store: %w", x.s.fail(ctx, err))
	}
	return nil
}

func (x *Pins) List(ctx context.Context) ([]store.Pin, error) {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	all, err := x.s.rdb.HGetAll(ctx, x.key()).Result()
	if err != nil {
		return nil, fmt.Errorf("pin store: %w", x.s.fail(ctx, err))
	}
	out := make([]store.Pin, 0, len(all))
	for id, v := range all {
		p, err := x.decode(id, v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b store.Pin) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
