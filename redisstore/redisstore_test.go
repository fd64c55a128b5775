package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/redistest"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
	"github.com/seed11a79d2d/codemode/tool"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

var prefixes atomic.Int64

// open connects a store with its own key prefix, so each check starts
// empty on the one redis-server.
func open(t *testing.T, url string, key []byte, prefix string) *Store {
	t.Helper()
	if prefix == "" {
		prefix = fmt.Sprintf("t%d:", prefixes.Add(1))
	}
	s, err := New(context.Background(), Options{URL: url, Key: key, Prefix: prefix, MaxRuns: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	url := redistest.Start(t)
	storetest.Runs(t, func(t *testing.T) store.Runs { return open(t, url, testKey, "") }, 40)
	storetest.Sessions(t, func(t *testing.T) store.Sessions { return open(t, url, testKey, "").Sessions() })
}

func TestNewRefuses(t *testing.T) {
	if _, err := New(context.Background(), Options{URL: "redis://127.0.0.1:1/0", Key: []byte("short")}); err == nil || !strings.Contains(err.Error(), "at least 32") {
		t.Fatalf("short key: %v", err)
	}
	if _, err := New(context.Background(), Options{URL: "http://x", Key: testKey}); err == nil {
		t.Fatal("a URL that is not redis:// was taken")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := New(ctx, Options{URL: "redis://127.0.0.1:1/0", Key: testKey}); err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("no server: %v", err)
	}
}

// Every entry an attacker with write access to Redis could forge, change,
// copy or put back is refused before the host decodes it.
func TestSignedEntries(t *testing.T) {
	url := redistest.Start(t)
	ctx := context.Background()
	scope := tool.Scope{AgentID: "a", SessionKey: "k", SessionID: "s", RunID: "r"}
	park := func(s *Store, id string, expires time.Time) {
		t.Helper()
		if err := s.Park(ctx, store.ParkedRun{ID: id, Scope: scope, Expires: expires, State: []byte(`{"v":1}`)}); err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, url, testKey, "sig:")
	opt, _ := redis.ParseURL(url)
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	rec := func(id string) string { return rdb.HGet(ctx, s.runKey(id), "rec").Val() }
	refused := func(id, what string) {
		t.Helper()
		_, _, err := s.Claim(ctx, id, scope, time.Minute)
		if !errors.Is(err, store.ErrRunUnavailable) {
			t.Errorf("%s: %v", what, err)
		}
	}

	// A changed byte.
	park(s, "cm_tamper", time.Now().Add(time.Minute))
	b := []byte(rec("cm_tamper"))
	b[len(b)-2] ^= 1
	rdb.HSet(ctx, s.runKey("cm_tamper"), "rec", b)
	refused("cm_tamper", "a changed record")

	// A changed scope: another session's run made to look like ours.
	other := tool.Scope{AgentID: "a", SessionKey: "victim", SessionID: "v", RunID: "r"}
	s.Park(ctx, store.ParkedRun{ID: "cm_scope", Scope: other, Expires: time.Now().Add(time.Minute), State: []byte(`{}`)})
	forged := strings.Replace(rec("cm_scope"), `"victim"`, `"k"     `, 1)
	rdb.HSet(ctx, s.runKey("cm_scope"), "rec", strings.Replace(forged, `"SessionID":"v"`, `"SessionID":"s"`, 1))
	refused("cm_scope", "a forged scope")

	// A record copied to another run id.
	park(s, "cm_src", time.Now().Add(time.Minute))
	park(s, "cm_dst", time.Now().Add(time.Minute))
	rdb.HSet(ctx, s.runKey("cm_dst"), "rec", rec("cm_src"))
	refused("cm_dst", "a record copied from another run")

	// A record signed with another key (another deployment's).
	foreign := open(t, url, []byte("another key, 32 bytes long......"), "sig:")
	park(foreign, "cm_foreign", time.Now().Add(time.Minute))
	refused("cm_foreign", "another deployment's record")

	// A stale record put back with a fresh Redis expiry.
	park(s, "cm_stale", time.Now().Add(50*time.Millisecond))
	old := rec("cm_stale")
	time.Sleep(100 * time.Millisecond)
	park(s, "cm_stale", time.Now().Add(time.Minute))
	rdb.HSet(ctx, s.runKey("cm_stale"), "rec", old)
	refused("cm_stale", "a stale record put back")

	// Outcomes: a changed one and one copied from another ticket read as
	// not settled.
	park(s, "cm_out", time.Now().Add(time.Minute))
	s.Settle(ctx, "cm_out", 1, abi.Resolve(`"real"`))
	s.Settle(ctx, "cm_out", 2, abi.Resolve(`"two"`))
	v := rdb.HGet(ctx, s.outKey("cm_out"), "1").Val()
	rdb.HSet(ctx, s.outKey("cm_out"), "1", strings.Replace(v, "real", "fake", 1))
	rdb.HSet(ctx, s.outKey("cm_out"), "3", rdb.HGet(ctx, s.outKey("cm_out"), "2").Val())
	rdb.HSet(ctx, s.outKey("cm_out"), "4", "garbage")
	outs, err := s.Settled(ctx, "cm_out")
	if err != nil || len(outs) != 1 || outs[2] != abi.Resolve(`"two"`) {
		t.Fatalf("outcomes: %v %v", err, outs)
	}
}

// Two runtimes on one Redis: a run parks on one and completes on the
// other, with a slow call's outcome written by the first.
func TestReplicasShareRuns(t *testing.T) {
	url := redistest.Start(t)
	release := make(chan struct{})
	slow := tool.Tool{Name: "slow", Description: "Answer when released.", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		select {
		case <-release:
			return tool.Result{Details: map[string]any{"ok": true}}, nil
		case <-ctx.Done():
			return tool.Result{}, ctx.Err()
		}
	}}
	mk := func(name string) *host.Runtime {
		rt, err := host.New(context.Background(), &host.Options{Tools: []tool.Tool{slow}, CodeMode: &host.Config{Enabled: true, Timeout: 500 * time.Millisecond},
			Runs: open(t, url, testKey, "rep:"), Replica: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close(context.Background()) })
		return rt
	}
	scope := tool.Scope{AgentID: "a", SessionKey: "k", SessionID: "s", RunID: "r"}
	prep := func(rt *host.Runtime) *host.Run {
		run, err := rt.Prepare(host.RunOptions{Scope: scope})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	a, b := prep(mk("a")), prep(mk("b"))
	code, _ := json.Marshal(map[string]string{"code": `const p = tools.callValue("slow", {}); await yield_control("x"); return (await p).ok`})
	r := a.Exec(context.Background(), "c1", code)
	if r.Status != host.StatusWaiting {
		t.Fatalf("exec: %+v", r)
	}
	waitArgs, _ := json.Marshal(map[string]string{"runId": r.RunID})
	if w := b.Wait(context.Background(), waitArgs); w.Status != host.StatusWaiting {
		t.Fatalf("wait before the call settles: %+v", w)
	}
	close(release)
	if w := b.Wait(context.Background(), waitArgs); w.Status != host.StatusCompleted || string(w.Value) != "true" {
		t.Fatalf("wait: %+v", w)
	}
}
