package reliability

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/redistest"
)

// replicaConfig is the replicas' setting: the demo plugin (slow_echo) and a
// short leg, so that a wait whose call is still running comes back waiting
// soon.
const replicaConfig = `{
  tools: { codeMode: { enabled: true, timeoutMs: 1500, maxPendingToolCalls: 16 } },
  plugins: { demo: true },
}`

// What a wait answers when it does not get the run (host/result.go's words).
const (
	msgAlreadyResuming = "code mode run is already being resumed."
	msgUnavailable     = "code mode run is unavailable or expired."
)

// lostCall is the failure of a wait whose run's call ran in a process that
// is gone.
var lostCall = regexp.MustCompile(`^code mode nested call \S+ was lost: the process that ran it \(replica_[0-9a-f]+\) stopped before it finished\.$`)

// replicaSet is a Redis run store and the codemode serve processes that
// share it, each `--stateless` with one bearer token.
type replicaSet struct {
	bin, dir           string
	store              string // redis:// URL
	token              string
	tokenFile, keyFile string
	replicas           []*served
	http               *http.Client // adds the bearer token
	tr                 *http.Transport
}

// newReplicaSet starts redis-server (or skips) and n replicas of the
// codemode binary bin on it.
func newReplicaSet(t *testing.T, bin string, n int) *replicaSet {
	t.Helper()
	store := redistest.Start(t)
	dir := t.TempDir()
	rs := &replicaSet{bin: bin, dir: dir, store: store, token: randomHex(t, 24),
		tokenFile: filepath.Join(dir, "token"), keyFile: filepath.Join(dir, "store.key"), tr: &http.Transport{}}
	if err := os.WriteFile(rs.tokenFile, []byte(rs.token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rs.keyFile, []byte(randomHex(t, 32)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rs.http = &http.Client{Transport: bearerTransport{rs.token, rs.tr}}
	t.Cleanup(rs.tr.CloseIdleConnections)
	for range n {
		rs.replicas = append(rs.replicas, rs.start(t))
	}
	return rs
}

// start starts one more replica on the set's store, key and token; it is
// killed when the test ends if it still runs.
func (rs *replicaSet) start(t *testing.T) *served {
	t.Helper()
	return launchServe(t, rs.bin, rs.dir, replicaConfig, false,
		"--stateless", "--token-file", rs.tokenFile, "--store", rs.store, "--store-key-file", rs.keyFile)
}

// dial connects an MCP client to url (a replica's or the proxy's) with the
// bearer token; it is closed when the test ends.
func (rs *replicaSet) dial(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := rs.connect(ctx, url)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func (rs *replicaSet) connect(ctx context.Context, url string) (*sdk.ClientSession, error) {
	return sdk.NewClient(&sdk.Implementation{Name: "replicas", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: url, HTTPClient: rs.http, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
}

// bearerTransport adds the bearer token to every request.
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// stop sends sig to a replica and waits for it to exit; it must exit 0.
func stop(t *testing.T, c *served, sig os.Signal) {
	t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.exited:
	case <-time.After(90 * time.Second):
		t.Fatalf("codemode serve still runs 90 s after %v:\n%s", sig, c.log)
	}
	if c.waitErr != nil {
		t.Fatalf("codemode serve after %v: %v\n%s", sig, c.waitErr, c.log)
	}
}

// kill stops a replica with SIGKILL and waits until it is gone.
func kill(t *testing.T, c *served) {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-c.exited
}

// call runs one tools/call and decodes its result; ctx bounds it.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) host.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, _, err := callResult(ctx, cs, tool, args)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return r
}

// waitDone waits for run id on cs until it is no longer waiting (each leg
// is at most timeoutMs); within limit legs.
func waitDone(t *testing.T, cs *sdk.ClientSession, id string, limit int) host.Result {
	t.Helper()
	for range limit {
		if r := call(t, cs, "wait", map[string]any{"runId": id}); r.Status != host.StatusWaiting {
			return r
		}
	}
	t.Fatalf("run %s still waiting after %d waits", id, limit)
	return host.Result{}
}

func wantValue(t *testing.T, r host.Result, want string) {
	t.Helper()
	if r.Status != host.StatusCompleted || string(r.Value) != want {
		t.Fatalf("want completed %s, got %s", want, describe(r))
	}
}

// TestReplicas runs codemode serve as two replicas on one Redis run store
// and moves runs between them: through a proxy that alternates requests,
// with waits racing on both, with the replica running a call killed, and
// across a restart. Each subtest has its own redis-server and processes;
// the binary is built once.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the codemode binary")
	}
	needRedis(t)
	bin := buildBinary(t, t.TempDir())

	// A cell parks on one replica, with a call in flight there; its wait,
	// on the other, gets the call's outcome through the store.
	t.Run("ParkHereResumeThere", func(t *testing.T) {
		rs := newReplicaSet(t, bin, 2)
		p := newRRProxy(t, rs.replicas[0].url, rs.replicas[1].url)
		cs := rs.dial(t, p.URL())
		for i := range 4 { // both ways round
			v := fmt.Sprintf("v%d-%s", i, randomHex(t, 4))
			code := fmt.Sprintf(`const s = tools.slow_echo({ms: 300, value: %q}); await yield_control("y"); return (await s).value`, v)
			r := call(t, cs, "exec", map[string]any{"code": code})
			if r.Status != host.StatusWaiting {
				t.Fatalf("exec: %s", describe(r))
			}
			id := r.RunID
			wantValue(t, waitDone(t, cs, id, 20), strconv.Quote(v))
			legs := p.recorded(func(c proxiedCall) bool { return c.RunID == id })
			if len(legs) < 2 || legs[0].Tool != "exec" || legs[len(legs)-1].Status != host.StatusCompleted.String() {
				t.Fatalf("the proxy saw %+v", legs)
			}
			for j := 1; j < len(legs); j++ {
				if legs[j].Backend == legs[j-1].Backend {
					t.Fatalf("legs %d and %d of %s both on replica %d: %+v", j-1, j, id, legs[j].Backend, legs)
				}
			}
			// Once completed, the run is gone on both replicas.
			if r := call(t, cs, "wait", map[string]any{"runId": id}); r.Status != host.StatusFailed || r.Error != msgUnavailable {
				t.Fatalf("a wait after completion: %s", describe(r))
			}
		}
		if got := len(p.recorded(func(c proxiedCall) bool { return c.Tool == "exec" && c.Backend == 0 })); got != 2 {
			t.Errorf("replica 0 ran %d of 4 execs; want 2", got)
		}
	})

	// Waits racing on both replicas resume a run once: one completes, the
	// other is refused, and the cell's side effect (a counter in the
	// session store of the replica that resumed it) is done once.
	t.Run("RacingWaitsResumeOnce", func(t *testing.T) {
		rs := newReplicaSet(t, bin, 2)
		cs := []*sdk.ClientSession{rs.dial(t, rs.replicas[0].url), rs.dial(t, rs.replicas[1].url)}
		const rounds = 12
		var keys []string
		refused := map[string]int{}
		for i := range rounds {
			key := fmt.Sprintf("race%d-%s", i, randomHex(t, 4))
			keys = append(keys, key)
			code := fmt.Sprintf(`const k = %q; await yield_control("y");
const c = ((await load(k)) ?? 0) + 1; await store(k, c); return {k, c}`, key)
			r := call(t, cs[i%2], "exec", map[string]any{"code": code})
			if r.Status != host.StatusWaiting {
				t.Fatalf("exec: %s", describe(r))
			}
			var out [2]host.Result
			var wg sync.WaitGroup
			start := make(chan struct{})
			for j := range 2 {
				wg.Go(func() {
					<-start
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					defer cancel()
					for range 20 {
						res, _, err := callResult(ctx, cs[j], "wait", map[string]any{"runId": r.RunID})
						if err != nil {
							res = host.Result{Status: "error", Error: err.Error()}
						}
						if out[j] = res; res.Status != host.StatusWaiting {
							return
						}
					}
				})
			}
			close(start)
			wg.Wait()
			completed := 0
			for j, res := range out {
				switch {
				case res.Status == host.StatusCompleted:
					completed++
					var v struct {
						K string `json:"k"`
						C int    `json:"c"`
					}
					if json.Unmarshal(res.Value, &v) != nil || v.K != key || v.C != 1 {
						t.Errorf("round %d: replica %d completed %s; want {k: %q, c: 1}", i, j, res.Value, key)
					}
				case res.Status == host.StatusFailed && (res.Error == msgAlreadyResuming || res.Error == msgUnavailable):
					refused[res.Error]++
				default:
					t.Errorf("round %d: replica %d: %s", i, j, describe(res))
				}
			}
			if completed != 1 {
				t.Errorf("round %d: %d waits completed; want 1: %s / %s", i, completed, describe(out[0]), describe(out[1]))
			}
		}
		t.Logf("the losing waits: %v", refused)
		counts, err := newCounters(t, cs).take(context.Background(), keys)
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range counts {
			if n != 1 {
				t.Errorf("round %d: the cell's side effect was done %d times; want 1", i, n)
			}
		}
	})

	// The replica running a parked run's call is killed: the wait on the
	// other replica fails with the lost-call message once its heartbeat
	// lapses, rather than waiting for the run's TTL or resuming it without
	// the call.
	t.Run("KilledReplicaLosesItsCall", func(t *testing.T) {
		rs := newReplicaSet(t, bin, 2)
		onA, onB := rs.dial(t, rs.replicas[0].url), rs.dial(t, rs.replicas[1].url)
		r := call(t, onA, "exec", map[string]any{"code": `const s = tools.slow_echo({ms: 30000, value: "never"}); await yield_control("y"); return (await s).value`})
		if r.Status != host.StatusWaiting {
			t.Fatalf("exec: %s", describe(r))
		}
		kill(t, rs.replicas[0])
		r = waitDone(t, onB, r.RunID, 40)
		if r.Status != host.StatusFailed || !lostCall.MatchString(r.Error) {
			t.Fatalf("wait after the kill: %s", describe(r))
		}
		if r := call(t, onB, "wait", map[string]any{"runId": r.RunID}); r.Status != host.StatusFailed {
			t.Fatalf("a wait after the loss: %s", describe(r))
		}
		// The surviving replica still serves.
		wantValue(t, call(t, onB, "exec", map[string]any{"code": `return 7`}), "7")
	})

	// Redis stalls (CLIENT PAUSE, shorter than the store's 2 s bound on an
	// operation) while a parked run's call finishes: its outcome is stored
	// when Redis answers again and the wait on the other replica completes,
	// rather than answering waiting until the run's TTL (redisstore's
	// TestStall* cover pauses past the bound).
	t.Run("StalledRedisKeepsTheOutcome", func(t *testing.T) {
		rs := newReplicaSet(t, bin, 2)
		onA, onB := rs.dial(t, rs.replicas[0].url), rs.dial(t, rs.replicas[1].url)
		r := call(t, onA, "exec", map[string]any{"code": `const s = tools.slow_echo({ms: 100, value: "kept"}); await yield_control("y"); return (await s).value`})
		if r.Status != host.StatusWaiting {
			t.Fatalf("exec: %s", describe(r))
		}
		redistest.Pause(t, rs.store, time.Second)()
		wantValue(t, waitDone(t, onB, r.RunID, 20), `"kept"`)
		if log := rs.replicas[0].log.String(); strings.Contains(log, "was not stored") {
			t.Fatalf("the outcome was not stored:\n%s", log)
		}
	})

	// A replica stopped with SIGTERM exits 0 and leaves its parked runs in
	// the store: a yield-only one, and one whose call was in flight (the
	// drain lets it finish and settle into the store). A new process on the
	// same store and key resumes both.
	t.Run("RestartResumes", func(t *testing.T) {
		rs := newReplicaSet(t, bin, 1)
		x := rs.replicas[0]
		cs := rs.dial(t, x.url)
		yielded := call(t, cs, "exec", map[string]any{"code": `const n = 6 * 7; await yield_control("restart"); return {n}`})
		inFlight := call(t, cs, "exec", map[string]any{"code": `const s = tools.slow_echo({ms: 1500, value: "drained"}); await yield_control("y"); const v = await s; return [v.value, v.sleptMs >= 1500]`})
		for _, r := range []host.Result{yielded, inFlight} {
			if r.Status != host.StatusWaiting {
				t.Fatalf("exec: %s", describe(r))
			}
		}
		cs.Close() // no request in flight when it stops
		stop(t, x, syscall.SIGTERM)
		if strings.Contains(x.log.String(), "code mode drain:") {
			t.Fatalf("the drain did not finish:\n%s", x.log)
		}
		y := rs.start(t)
		cs = rs.dial(t, y.url)
		wantValue(t, waitDone(t, cs, yielded.RunID, 10), `{"n":42}`)
		wantValue(t, waitDone(t, cs, inFlight.RunID, 10), `["drained",true]`)
	})
}

// selfCPU is the CPU time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// needRedis skips the test, before it builds anything, when redis-server is
// not installed (with redistest's advice).
func needRedis(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		redistest.Start(t)
	}
}

// counters reads the resumption counters cells keep with store(): on
// every replica when each keeps its own session state, on one when they
// share it (in the run store's Redis).
type counters struct{ on []*sdk.ClientSession }

// newCounters finds out whether the replicas behind direct (one session on
// each) share session state.
func newCounters(t *testing.T, direct []*sdk.ClientSession) *counters {
	t.Helper()
	key := "probe-" + randomHex(t, 8)
	wantValue(t, call(t, direct[0], "exec", map[string]any{"code": fmt.Sprintf(`await store(%q, 1); return 1`, key)}), "1")
	c := &counters{on: direct[:1]}
	for _, cs := range direct[1:] {
		r := call(t, cs, "exec", map[string]any{"code": fmt.Sprintf(`return (await load(%q)) ?? 0`, key)})
		switch string(r.Value) {
		case "0":
			c.on = append(c.on, cs)
		case "1":
		default:
			t.Fatalf("probing session state: %s", describe(r))
		}
	}
	if _, err := c.take(context.Background(), []string{key}); err != nil {
		t.Fatal(err)
	}
	if len(c.on) == 1 {
		t.Logf("session state: shared by the %d replicas", len(direct))
	} else {
		t.Logf("session state: each of the %d replicas keeps its own", len(direct))
	}
	return c
}

// take returns the counters of keys (0 for a key not set), summed over the
// replicas that keep their own, and deletes them.
func (c *counters) take(ctx context.Context, keys []string) ([]int, error) {
	counts := make([]int, len(keys))
	for _, cs := range c.on {
		var off int
		for batch := range slices.Chunk(keys, 100) {
			ks, _ := json.Marshal(batch)
			code := fmt.Sprintf(`const out = [];
for (const k of %s) { out.push((await load(k)) ?? 0); await store(k, undefined); }
return out`, ks)
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			r, _, err := callResult(ctx, cs, "exec", map[string]any{"code": code})
			for n := 0; err == nil && r.Status == host.StatusWaiting && n < 20; n++ {
				r, _, err = callResult(ctx, cs, "wait", map[string]any{"runId": r.RunID})
			}
			cancel()
			var got []int
			switch {
			case err != nil:
				return nil, fmt.Errorf("reading counters: %w", err)
			case r.Status != host.StatusCompleted || json.Unmarshal(r.Value, &got) != nil || len(got) != len(batch):
				return nil, fmt.Errorf("reading counters: %s", describe(r))
			}
			for i, n := range got {
				counts[off+i] += n
			}
			off += len(batch)
		}
	}
	return counts, nil
}

// replicaCell is one cell of TestLoadReplicas for nonce: it parks at a
// yield (with, for slow, a short call in flight that keeps running on the
// replica that parked it), resumes on the other replica, counts its
// resumption in that replica's session store and returns its nonce.
func replicaCell(nonce string, slow bool) string {
	if slow {
		return fmt.Sprintf(`const s = tools.slow_echo({ms: 20, value: %q}); await yield_control("y");
const n = (await s).value; const c = ((await load(n)) ?? 0) + 1; await store(n, c); return {n, c}`, nonce)
	}
	return fmt.Sprintf(`const n = %q; await yield_control("y");
const c = ((await load(n)) ?? 0) + 1; await store(n, c); return {n, c}`, nonce)
}

// TestLoadReplicas is TestLoadBinary's loop against two replicas behind the
// round-robin proxy: CODEMODE_LOAD_SESSIONS (default 200) MCP sessions, at
// most CODEMODE_LOAD_PARALLEL (default 32) running a cell at once, for
// CODEMODE_LOAD_SECONDS (default 5). Every cell parks on one replica and its
// wait goes to the other. It checks that nothing is lost (every cell
// completes with its own nonce) and nothing runs twice (each cell counts its
// resumption under its nonce with store(); workers read and clear the
// counters in batches, and each must be one), and reports cells/s and
// latency. Both replicas then get SIGTERM
// and must exit 0.
func TestLoadReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("load profile")
	}
	needRedis(t)
	bin := buildBinary(t, t.TempDir())
	replicas := envInt("CODEMODE_LOAD_REPLICAS", 2)
	rs := newReplicaSet(t, bin, replicas)
	var urls []string
	for _, c := range rs.replicas {
		urls = append(urls, c.url)
	}
	p := newRRProxy(t, urls...)
	sessions, parallel, seconds := envInt("CODEMODE_LOAD_SESSIONS", 200), envInt("CODEMODE_LOAD_PARALLEL", 32), envInt("CODEMODE_LOAD_SECONDS", 5)

	pool := make(chan *sdk.ClientSession, sessions)
	var open []*sdk.ClientSession
	for range sessions {
		cs := rs.dial(t, p.URL())
		open = append(open, cs)
		pool <- cs
	}

	type outcome struct {
		nonce string
		d     time.Duration
		err   string // "" when it completed with its own value
		parks bool   // exec answered waiting
		busy  bool   // no cell slot before the deadline
		count int    // how many times its resumption was counted
	}
	var direct []*sdk.ClientSession
	for _, u := range urls {
		direct = append(direct, rs.dial(t, u))
	}
	ctr := newCounters(t, direct)
	var (
		mu       sync.Mutex
		outcomes []outcome
		seq      atomic.Int64
		auditErr []error
	)
	// audit takes the counters of a worker's cells, in batches, so that
	// they never fill the session's state.
	audit := func(batch []outcome) {
		keys := make([]string, len(batch))
		for i, o := range batch {
			keys[i] = o.nonce
		}
		counts, err := ctr.take(context.Background(), keys)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			auditErr = append(auditErr, err)
		}
		for i := range batch {
			if err == nil {
				batch[i].count = counts[i]
			}
			outcomes = append(outcomes, batch[i])
		}
	}
	runCell := func() outcome {
		i := seq.Add(1)
		o := outcome{nonce: "n" + strconv.FormatInt(i, 36)}
		cs := <-pool
		defer func() { pool <- cs }()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		t0 := time.Now()
		res, _, err := callResult(ctx, cs, "exec", map[string]any{"code": replicaCell(o.nonce, i%2 == 0)})
		o.parks = err == nil && res.Status == host.StatusWaiting
		for n := 0; err == nil && res.Status == host.StatusWaiting && n < 40; n++ {
			res, _, err = callResult(ctx, cs, "wait", map[string]any{"runId": res.RunID})
		}
		o.d = time.Since(t0)
		var v struct {
			N string `json:"n"`
			C int    `json:"c"`
		}
		switch {
		case err != nil:
			o.err = err.Error()
		case res.Status == host.StatusFailed && res.Reason == "busy" && !o.parks:
			o.busy = true
		case res.Status != host.StatusCompleted || json.Unmarshal(res.Value, &v) != nil || v.N != o.nonce || v.C != 1:
			o.err = describe(res)
		}
		return o
	}

	cpu0 := selfCPU()
	start := time.Now()
	deadline := start.Add(time.Duration(seconds) * time.Second)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			var batch []outcome
			for time.Now().Before(deadline) {
				if batch = append(batch, runCell()); len(batch) == 100 {
					audit(batch)
					batch = nil
				}
			}
			audit(batch)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	driverCPU := selfCPU() - cpu0

	for _, err := range auditErr {
		t.Error(err)
	}
	// Nothing lost: every cell completed with its own nonce, and counted its
	// resumption. Nothing run twice: none was counted more than once (a
	// cell refused a cell slot, not at all).
	var lat []time.Duration
	lost, busy, twice := 0, 0, 0
	var failures []string
	for _, o := range outcomes {
		switch {
		case o.busy:
			busy++
		case o.err == "" && o.count == 0 && len(auditErr) == 0:
			o.err = "completed, but its resumption was not counted"
			fallthrough
		case o.err != "":
			lost++
			if len(failures) < 20 {
				failures = append(failures, o.nonce+": "+o.err)
			}
		default:
			lat = append(lat, o.d)
		}
		if o.count > 1 || o.busy && o.count > 0 {
			twice++
			if len(failures) < 40 {
				failures = append(failures, fmt.Sprintf("%s: resumed %d times", o.nonce, o.count))
			}
		}
	}
	waits := len(p.recorded(func(c proxiedCall) bool { return c.Tool == "wait" }))

	var peak []string
	for _, c := range rs.replicas {
		if runtime.GOOS != "linux" {
			peak = append(peak, "n/a")
			continue
		}
		peak = append(peak, vmHWM(t, c.cmd.Process.Pid))
	}
	for _, cs := range append(open, direct...) {
		cs.Close()
	}
	var serverCPU time.Duration
	for i, c := range rs.replicas {
		stop(t, c, syscall.SIGTERM)
		serverCPU += c.cmd.ProcessState.UserTime() + c.cmd.ProcessState.SystemTime()
		for line := range strings.Lines(c.log.String()) {
			if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
				t.Logf("replica %d: %s", i, strings.TrimSpace(line))
			}
		}
	}

	if lost > 0 || twice > 0 {
		t.Errorf("%d cells lost, %d run twice; the first:\n%s", lost, twice, strings.Join(failures, "\n"))
	}
	slices.Sort(lat)
	pct := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(float64(len(lat))*q))].Round(100 * time.Microsecond)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| replicas | sessions | at once | seconds | cells completed | cells/s | busy (no cell slot) | p50 | p99 | lost | run twice | waits | CPU per cell: replicas, driver | peak RSS (VmHWM) per replica |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	perCell := func(d time.Duration) string {
		return (d / time.Duration(max(1, len(outcomes)))).Round(10 * time.Microsecond).String()
	}
	fmt.Fprintf(&b, "| %d | %d | %d | %.1f | %d | %.0f | %d | %v | %v | %d | %d | %d | %s, %s | %s |\n", replicas, sessions, parallel, elapsed.Seconds(), len(lat),
		float64(len(lat))/elapsed.Seconds(), busy, pct(.5), pct(.99), lost, twice, waits, perCell(serverCPU), perCell(driverCPU), strings.Join(peak, ", "))
	t.Log("\n" + b.String())
	if path := os.Getenv("CODEMODE_LOAD_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if len(lat) == 0 {
		t.Fatal("no cell completed")
	}
}
