// Package redisstore is a [store.Runs] in Redis: parked runs that any
// replica sharing the Redis can resume, and that survive a restart.
//
// Every record and every call outcome is signed with HMAC-SHA256 under the
// operator's key, over the run id and the key's role as well as the bytes,
// so a record that was changed, written by someone without the key, or
// copied to another run or role is refused before it is decoded. Keys
// expire with the run (snapshotTtlSeconds), and a signed record names its
// expiry too: one re-inserted after it is refused. Claims are a Lua script
// (compare-and-set of the claim, and a lease key with its own expiry), so
// two replicas never resume one run.
//
// Keys, under Options.Prefix ("codemode:"): run:<id> (a hash: the record,
// its scope, the claim token), run:<id>:out (the calls' outcomes),
// run:<id>:lease, runs (a sorted set of every run by expiry: the total
// cap), session:<hash> (one per session: its cap, and DropSession) and
// replica:<name> (liveness).
package redisstore

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// Options configure a [Store].
type Options struct {
	// URL is a redis:// or rediss:// URL (redis.ParseURL's form).
	URL string
	// Key signs and checks every entry; at least 32 bytes. Every replica
	// of one deployment has the same key.
	Key []byte
	// Prefix starts every key; empty means "codemode:".
	Prefix string
	// MaxRuns caps parked runs across every replica; 0 means
	// [DefaultMaxRuns]. A session's cap is the record's SessionCap wherever
	// its runs parked.
	MaxRuns int
	// OpTimeout bounds each operation, retries included; 0 means
	// [DefaultOpTimeout]. A Redis that stalls (paused, failing over, its
	// network gone) then fails the operation with [ErrNoAnswer] instead of
	// holding a cell's store() or a run's parking for tens of seconds.
	OpTimeout time.Duration
}

// DefaultOpTimeout is how long a Store waits for Redis by default: Redis
// answers in well under a millisecond, so two seconds is an outage, and it
// is short enough that a cell can catch the error and go on.
const DefaultOpTimeout = 2 * time.Second

// ErrNoAnswer is what an operation returns (wrapped) when Redis did not
// answer within the operation's timeout.
var ErrNoAnswer = errors.New("redis did not answer in time")

// DefaultMaxRuns is the total cap of a Store without Options.MaxRuns:
// sixteen processes' worth of the host's in-process cap
// ([store.MaxParkedRuns]).
const DefaultMaxRuns = 16 * store.MaxParkedRuns

// MinKeyBytes is the shortest signing key a Store takes.
const MinKeyBytes = 32

// Store is a [store.Runs] in Redis. Close it.
type Store struct {
	rdb     *redis.Client
	key     []byte
	prefix  string
	maxRuns int
	timeout time.Duration // OpTimeout

	mu     sync.Mutex
	claims map[string]string // run id -> this process's claim token
}

// New connects to Redis and checks that it answers.
func New(ctx context.Context, o Options) (*Store, error) {
	if len(o.Key) < MinKeyBytes {
		return nil, fmt.Errorf("run store: the signing key has %d bytes; it needs at least %d", len(o.Key), MinKeyBytes)
	}
	opt, err := redis.ParseURL(o.URL)
	if err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	timeout := o.OpTimeout
	if timeout <= 0 {
		timeout = DefaultOpTimeout
	}
	// The client's own defaults (5 s reads, 3 retries) add up to 20 s on a
	// stalled Redis; each operation's context bounds it instead, socket
	// reads and writes included.
	opt.ContextTimeoutEnabled = true
	bound := func(d time.Duration) time.Duration { // a URL's shorter timeout stays
		if d <= 0 || d > timeout {
			return timeout
		}
		return d
	}
	opt.ReadTimeout, opt.WriteTimeout, opt.DialTimeout = bound(opt.ReadTimeout), bound(opt.WriteTimeout), bound(opt.DialTimeout)
	s := &Store{rdb: redis.NewClient(opt), key: o.Key, prefix: o.Prefix, maxRuns: o.MaxRuns, timeout: timeout, claims: map[string]string{}}
	if s.prefix == "" {
		s.prefix = "codemode:"
	}
	if s.maxRuns <= 0 {
		s.maxRuns = DefaultMaxRuns
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		s.rdb.Close()
		return nil, fmt.Errorf("run store: redis at %s does not answer: %w", opt.Addr, s.fail(ctx, err))
	}
	return s, nil
}

// op bounds one operation by the store's timeout.
func (s *Store) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// fail words an operation's error: one that ran out of its time says so,
// with the bound, rather than "i/o timeout" or "context deadline exceeded".
func (s *Store) fail(ctx context.Context, err error) error {
	var nerr interface{ Timeout() bool }
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout() || ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%w (it waits at most %v)", ErrNoAnswer, s.timeout)
	}
	return err
}

// Close closes the connections.
func (s *Store) Close() error { return s.rdb.Close() }

var _ store.Runs = (*Store)(nil)

func (s *Store) runKey(id string) string   { return s.prefix + "run:" + id }
func (s *Store) outKey(id string) string   { return s.prefix + "run:" + id + ":out" }
func (s *Store) leaseKey(id string) string { return s.prefix + "run:" + id + ":lease" }
func (s *Store) runsKey() string           { return s.prefix + "runs" }
func (s *Store) sessionKey(x store.Session) string {
	sum := sha256.Sum256([]byte(x.Key + "\x00" + x.ID))
	return s.prefix + "session:" + hex.EncodeToString(sum[:16])
}
func (s *Store) replicaKey(name string) string { return s.prefix + "replica:" + name }

// Roles bind a signature to what the bytes are.
const (
	roleRecord  = "record"
	roleOutcome = "outcome"
	roleState   = "state"
)

// sign returns mac || body, the MAC over the role, the run id and body.
func (s *Store) sign(role, id string, body []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("codemode-run-store-v1\x00" + role + "\x00" + id + "\x00"))
	m.Write(body)
	return append(m.Sum(nil), body...)
}

var errSignature = errors.New("its stored entry failed the signature check (changed, foreign, or signed with another key)")

// open checks a signed value and returns its body.
func (s *Store) open(role, id string, signed []byte) ([]byte, error) {
	if len(signed) < sha256.Size {
		return nil, errSignature
	}
	body := signed[sha256.Size:]
	if !hmac.Equal(s.sign(role, id, body)[:sha256.Size], signed[:sha256.Size]) {
		return nil, errSignature
	}
	return body, nil
}

// header is what a record holds besides the host's state.
type header struct {
	Scope   tool.Scope `json:"scope"`
	Expires int64      `json:"expires"` // Unix ms
}

// encodeRecord is len(header) || header || state, before signing.
func encodeRecord(rec store.ParkedRun) []byte {
	h, _ := json.Marshal(header{Scope: rec.Scope, Expires: rec.Expires.UnixMilli()})
	out := binary.BigEndian.AppendUint32(nil, uint32(len(h)))
	out = append(out, h...)
	return append(out, rec.State...)
}

func decodeRecord(id string, body []byte) (store.ParkedRun, error) {
	if len(body) < 4 || int(binary.BigEndian.Uint32(body)) > len(body)-4 {
		return store.ParkedRun{}, errors.New("its record is truncated")
	}
	n := int(binary.BigEndian.Uint32(body))
	var h header
	if err := json.Unmarshal(body[4:4+n], &h); err != nil {
		return store.ParkedRun{}, err
	}
	return store.ParkedRun{ID: id, Scope: h.Scope, Expires: time.UnixMilli(h.Expires), State: body[4+n:]}, nil
}

// parkScript stores a run. KEYS: run, out, lease, runs, session.
// ARGV: record, now ms, expires ms, max runs, session cap, token (the
// caller's claim of an existing run, or "").
var parkScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[6] == '' or redis.call('HGET', KEYS[1], 'claim') ~= ARGV[6] then return 'claimed' end
else
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', ARGV[2])
  if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[4]) then return 'full' end
  if redis.call('ZCARD', KEYS[5]) >= tonumber(ARGV[5]) then return 'session' end
end
redis.call('HSET', KEYS[1], 'rec', ARGV[1], 'claim', '', 'session', KEYS[5])
redis.call('DEL', KEYS[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIREAT', KEYS[2], ARGV[3]) end
redis.call('ZADD', KEYS[4], ARGV[3], KEYS[1])
redis.call('ZADD', KEYS[5], ARGV[3], KEYS[1])
redis.call('PEXPIREAT', KEYS[5], ARGV[3], 'GT')
redis.call('PEXPIREAT', KEYS[4], ARGV[3], 'GT')
return 'ok'
`)

func (s *Store) Park(ctx context.Context, rec store.ParkedRun) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	s.mu.Lock()
	token := s.claims[rec.ID]
	delete(s.claims, rec.ID)
	s.mu.Unlock()
	signed := s.sign(roleRecord, rec.ID, encodeRecord(rec))
	now := time.Now().UnixMilli()
	res, err := parkScript.Run(ctx, s.rdb, []string{s.runKey(rec.ID), s.outKey(rec.ID), s.leaseKey(rec.ID), s.runsKey(), s.sessionKey(store.Session{Key: rec.Scope.SessionKey, ID: rec.Scope.SessionID})},
		signed, now, rec.Expires.UnixMilli(), s.maxRuns, rec.Cap(), token).Text()
	if err != nil {
		return fmt.Errorf("run store: park: %w", s.fail(ctx, err))
	}
	switch res {
	case "ok":
		return nil
	case "full":
		return store.ErrTooManyRuns
	case "session":
		return store.ErrTooManySessionRuns
	}
	return store.ErrAlreadyResuming // another wait holds it, or this one's lease ran out
}

// peekScript reads a run for a claim. A claim whose holder vanished (its
// lease expired) answers "lost", and Claim drops the run: it is never
// resumed twice. KEYS: run, out, lease. Returns {state, record, outcomes}.
var peekScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local claim = redis.call('HGET', KEYS[1], 'claim')
if claim and claim ~= '' then
  if redis.call('EXISTS', KEYS[3]) == 1 then return {'claimed'} end
  return {'lost'}
end
return {'ok', redis.call('HGET', KEYS[1], 'rec'), redis.call('HGETALL', KEYS[2])}
`)

// takeScript claims a run whose record the caller checked. KEYS: run,
// lease. ARGV: token, lease ms, the record the caller checked.
var takeScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local claim = redis.call('HGET', KEYS[1], 'claim')
if claim and claim ~= '' then return 'claimed' end
if redis.call('HGET', KEYS[1], 'rec') ~= ARGV[3] then return 'claimed' end
redis.call('HSET', KEYS[1], 'claim', ARGV[1])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 'ok'
`)

func (s *Store) Claim(ctx context.Context, id string, caller tool.Scope, lease time.Duration) (store.ParkedRun, map[abi.Ticket]abi.Outcome, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	res, err := peekScript.Run(ctx, s.rdb, []string{s.runKey(id), s.outKey(id), s.leaseKey(id)}).Slice()
	if err != nil {
		return store.ParkedRun{}, nil, fmt.Errorf("run store: claim: %w", s.fail(ctx, err))
	}
	switch res[0] {
	case "gone":
		return store.ParkedRun{}, nil, store.ErrRunUnavailable
	case "claimed":
		return store.ParkedRun{}, nil, store.ErrAlreadyResuming
	case "lost":
		s.Remove(ctx, id)
		return store.ParkedRun{}, nil, store.ErrRunLost
	}
	signed, _ := res[1].(string)
	body, err := s.open(roleRecord, id, []byte(signed))
	if err != nil {
		s.Remove(ctx, id)
		return store.ParkedRun{}, nil, fmt.Errorf("%w: %w", store.ErrRunUnavailable, err)
	}
	rec, err := decodeRecord(id, body)
	if err != nil {
		s.Remove(ctx, id)
		return store.ParkedRun{}, nil, fmt.Errorf("%w: %w", store.ErrRunUnavailable, err)
	}
	if time.Now().After(rec.Expires) { // a stale record put back: refuse it
		s.Remove(ctx, id)
		return store.ParkedRun{}, nil, store.ErrRunUnavailable
	}
	if err := store.CheckScope(rec.Scope, caller); err != nil {
		return store.ParkedRun{}, nil, err
	}
	token := newToken()
	took, err := takeScript.Run(ctx, s.rdb, []string{s.runKey(id), s.leaseKey(id)}, token, lease.Milliseconds(), signed).Text()
	if err != nil {
		return store.ParkedRun{}, nil, fmt.Errorf("run store: claim: %w", s.fail(ctx, err))
	}
	switch took {
	case "gone":
		return store.ParkedRun{}, nil, store.ErrRunUnavailable
	case "claimed":
		return store.ParkedRun{}, nil, store.ErrAlreadyResuming
	}
	s.mu.Lock()
	s.claims[id] = token
	s.mu.Unlock()
	outs, _ := res[2].([]any)
	return rec, s.outcomes(id, outs), nil
}

// outcomes checks and decodes the fields of run:<id>:out; an entry that
// fails its signature is left out, as if its call had not settled.
func (s *Store) outcomes(id string, flat []any) map[abi.Ticket]abi.Outcome {
	out := map[abi.Ticket]abi.Outcome{}
	for i := 0; i+1 < len(flat); i += 2 {
		field, _ := flat[i].(string)
		value, _ := flat[i+1].(string)
		t, err := strconv.ParseUint(field, 10, 32)
		if err != nil {
			continue
		}
		body, err := s.open(roleOutcome, id+"/"+field, []byte(value))
		if err != nil {
			continue
		}
		var o abi.Outcome
		if json.Unmarshal(body, &o) == nil {
			out[abi.Ticket(t)] = o
		}
	}
	return out
}

func (s *Store) Settled(ctx context.Context, id string) (map[abi.Ticket]abi.Outcome, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	flat, err := s.rdb.HGetAll(ctx, s.outKey(id)).Result()
	if err != nil {
		return nil, fmt.Errorf("run store: %w", s.fail(ctx, err))
	}
	list := make([]any, 0, 2*len(flat))
	for k, v := range flat {
		list = append(list, k, v)
	}
	return s.outcomes(id, list), nil
}

// settleScript records an outcome of a run that still exists, expiring
// with it. KEYS: run, out. ARGV: ticket, signed outcome.
var settleScript = redis.NewScript(`
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`)

func (s *Store) Settle(ctx context.Context, id string, t abi.Ticket, o abi.Outcome) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	field := strconv.FormatUint(uint64(t), 10)
	body, _ := json.Marshal(o)
	if err := settleScript.Run(ctx, s.rdb, []string{s.runKey(id), s.outKey(id)}, field, s.sign(roleOutcome, id+"/"+field, body)).Err(); err != nil {
		return fmt.Errorf("run store: settle: %w", s.fail(ctx, err))
	}
	return nil
}

// releaseScript ends the caller's claim. KEYS: run, lease. ARGV: token.
var releaseScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'claim') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'claim', '')
  redis.call('DEL', KEYS[2])
end
return 1
`)

func (s *Store) Release(ctx context.Context, id string) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	s.mu.Lock()
	token := s.claims[id]
	delete(s.claims, id)
	s.mu.Unlock()
	if token == "" {
		return nil
	}
	if err := releaseScript.Run(ctx, s.rdb, []string{s.runKey(id), s.leaseKey(id)}, token).Err(); err != nil {
		return fmt.Errorf("run store: release: %w", s.fail(ctx, err))
	}
	return nil
}

func (s *Store) Remove(ctx context.Context, id string) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	s.forget(ctx, id)
	sess, _ := s.rdb.HGet(ctx, s.runKey(id), "session").Result()
	p := s.rdb.TxPipeline()
	p.Del(ctx, s.runKey(id), s.outKey(id), s.leaseKey(id))
	p.ZRem(ctx, s.runsKey(), s.runKey(id))
	if sess != "" {
		p.ZRem(ctx, sess, s.runKey(id))
	}
	if _, err := p.Exec(ctx); err != nil {
		return fmt.Errorf("run store: remove: %w", s.fail(ctx, err))
	}
	return nil
}

// forget drops this process's claim token of a run.
func (s *Store) forget(_ context.Context, id string) {
	s.mu.Lock()
	delete(s.claims, id)
	s.mu.Unlock()
}

// dropScript removes every run of a session. KEYS: session, runs.
var dropScript = redis.NewScript(`
for _, run in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  redis.call('DEL', run, run .. ':out', run .. ':lease')
  redis.call('ZREM', KEYS[2], run)
end
redis.call('DEL', KEYS[1])
return 1
`)

func (s *Store) DropSession(ctx context.Context, x store.Session) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	if err := dropScript.Run(ctx, s.rdb, []string{s.sessionKey(x), s.runsKey()}).Err(); err != nil {
		return fmt.Errorf("run store: drop session: %w", s.fail(ctx, err))
	}
	return nil
}

func (s *Store) Beat(ctx context.Context, replica string, ttl time.Duration) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	if err := s.rdb.Set(ctx, s.replicaKey(replica), "1", ttl).Err(); err != nil {
		return fmt.Errorf("run store: heartbeat: %w", s.fail(ctx, err))
	}
	return nil
}

func (s *Store) Alive(ctx context.Context, replica string) (bool, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	n, err := s.rdb.Exists(ctx, s.replicaKey(replica)).Result()
	if err != nil {
		return false, fmt.Errorf("run store: %w", s.fail(ctx, err))
	}
	return n == 1, nil
}

func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
