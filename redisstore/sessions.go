package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed11a79d2d/codemode/store"
)

// Sessions is a [store.Sessions] in the same Redis: what cells keep with
// store(key, value), seen by every replica. Values are signed like runs. A
// session's values expire sessionTTL after its last store, so that sessions
// whose end no replica saw (it crashed) do not stay for ever.
type Sessions struct{ s *Store }

// Sessions returns the store's session state.
func (s *Store) Sessions() *Sessions { return &Sessions{s} }

var _ store.Sessions = (*Sessions)(nil)

// sessionTTL is how long a session's values outlive its last store, and
// endedTTL how long an ended session refuses stores (from legs that were
// still running when it ended).
const (
	sessionTTL = 24 * time.Hour
	endedTTL   = 10 * time.Minute
)

func (x *Sessions) keys(s store.Session) (values, bytes, ended string) {
	sum := sha256.Sum256([]byte(s.Key + "\x00" + s.ID))
	base := x.s.prefix + "state:" + hex.EncodeToString(sum[:16])
	return base, base + ":bytes", base + ":ended"
}

// roleState binds a value's signature to its session and key.
func stateID(s store.Session, key string) string {
	return s.Key + "\x00" + s.ID + "\x00" + key
}

func (x *Sessions) Load(ctx context.Context, s store.Session, key string) (json.RawMessage, bool, error) {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	values, _, _ := x.keys(s)
	v, err := x.s.rdb.HGet(ctx, values, key).Result()
	if err == redis.Nil {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("session state: %w", x.s.fail(ctx, err))
	}
	body, err := x.s.open(roleState, stateID(s, key), []byte(v))
	if err != nil || !json.Valid(body) {
		return nil, false, fmt.Errorf("session state: the value of %q %w", key, errSignature)
	}
	return body, true, nil
}

// storeScript sets or deletes one value within the session's bound.
// KEYS: values, bytes, ended. ARGV: key, signed value, its cost, the
// bound, ttl ms, "1" to set or "0" to delete, the cost of a key beside its
// key and value. A stored value is its MAC (32 bytes) and the value.
var storeScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[3]) == 1 then return 'ended' end
local old = redis.call('HGET', KEYS[1], ARGV[1])
local total = tonumber(redis.call('GET', KEYS[2]) or '0')
if old then total = total - tonumber(ARGV[7]) - #ARGV[1] - (#old - 32) end
if ARGV[6] == '1' then
  if total + tonumber(ARGV[3]) > tonumber(ARGV[4]) then return 'full:' .. total end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  total = total + tonumber(ARGV[3])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
if total <= 0 then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 'ok'
end
redis.call('SET', KEYS[2], total, 'PX', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 'ok'
`)

func (x *Sessions) Store(ctx context.Context, s store.Session, key string, value json.RawMessage) error {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	values, bytes, ended := x.keys(s)
	set, signed, cost := "0", []byte{}, 0
	if value != nil {
		set, signed = "1", x.s.sign(roleState, stateID(s, key), value)
		cost = store.EntryCost(key, value)
	}
	res, err := storeScript.Run(ctx, x.s.rdb, []string{values, bytes, ended}, key, signed, cost, store.MaxStateSessionBytes,
		sessionTTL.Milliseconds(), set, store.StateEntryBytes).Text()
	switch {
	case err != nil:
		return fmt.Errorf("session state: %w", x.s.fail(ctx, err))
	case res == "ended":
		return store.ErrSessionEnded
	case res != "ok":
		var held int
		fmt.Sscanf(res, "full:%d", &held)
		return store.FullError(held, cost)
	}
	return nil
}

func (x *Sessions) Drop(ctx context.Context, s store.Session) error {
	ctx, cancel := x.s.op(ctx)
	defer cancel()
	values, bytes, ended := x.keys(s)
	p := x.s.rdb.TxPipeline()
	p.Del(ctx, values, bytes)
	p.Set(ctx, ended, "1", endedTTL)
	if _, err := p.Exec(ctx); err != nil {
		return fmt.Errorf("session state: %w", x.s.fail(ctx, err))
	}
	return nil
}
