package redisstore

import (
	"context"

	"github.com/seed11a79d2d/codemode/store"
)

// Shapes is a [store.Shapes] in the same Redis: one hash per group, each
// shape signed like a run, so a shape written by anyone without the key
// (it would reach models as a declaration) is dropped on load.
type Shapes struct{ s *Store }

// Shapes returns the store's learned result shapes.
func (s *Store) Shapes() *Shapes { return &Shapes{s} }

var _ store.Shapes = (*Shapes)(nil)

func (x *Shapes) key(group string) string { return x.s.prefix + "shapes:" + group }

func (x *Shapes) LoadShapes(ctx context.Context, group string) (map[string][]byte, error) {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	all, err := x.s.rdb.HGetAll(ctx, x.key(group)).Result()
	if err != nil {
		return nil, x.s.fail(ctx, err)
	}
	out := make(map[string][]byte, len(all))
	for k, v := range all {
		if body, err := x.s.open("shape", group+"\x00"+k, []byte(v)); err == nil {
			out[k] = body
		}
	}
	return out, nil
}

func (x *Shapes) SaveShape(ctx context.Context, group, key string, shape []byte) error {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	if err := x.s.rdb.HSet(ctx, x.key(group), key, x.s.sign("shape", group+"\x00"+key, shape)).Err(); err != nil {
		return x.s.fail(ctx, err)
	}
	return nil
}
