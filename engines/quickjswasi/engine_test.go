package quickjswasi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// testHost records requests and output, and interrupts at a deadline.
type testHost struct {
	mu       sync.Mutex
	next     abi.Ticket
	requests []request
	output   []string
	deadline time.Time
	abort    bool
	block    time.Duration
	emitErr  error
	// pollsAfter counts polls answered with a stop: the engine must stop at
	// the first one.
	pollsAfter int
}

type request struct {
	ticket      abi.Ticket
	op, payload string
}

func (h *testHost) Request(op, payload string) (abi.Ticket, error) {
	if h.block > 0 {
		time.Sleep(h.block)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if op == "fail" {
		return 0, errors.New("too many pending code mode tool calls")
	}
	h.next++
	h.requests = append(h.requests, request{h.next, op, payload})
	return h.next, nil
}

func (h *testHost) Emit(kind abi.OutputKind, payload string) error {
	if h.emitErr != nil {
		return h.emitErr
	}
	h.output = append(h.output, kind.String()+":"+payload)
	return nil
}

func (h *testHost) ShouldInterrupt() abi.Interrupt {
	if h.abort {
		return abi.InterruptAbort
	}
	if !h.deadline.IsZero() && time.Now().After(h.deadline) {
		h.pollsAfter++
		return abi.InterruptDeadline
	}
	return abi.InterruptNone
}

var (
	sharedOnce sync.Once
	shared     *Engine
	sharedErr  error
)

// engine returns one engine shared by the package's tests: compiling is the
// slow part, and sharing it also exercises the pool across tests.
func engine(t testing.TB) *Engine {
	t.Helper()
	sharedOnce.Do(func() {
		shared, sharedErr = New(context.Background(), &Options{CacheDir: cacheForTests(), Limits: abi.Limits{MemoryBytes: 16 << 20}})
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func cacheForTests() string {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d
	}
	return ""
}

func run(t testing.TB, e abi.Engine, h *testHost, src string) (abi.Cell, abi.Step) {
	t.Helper()
	c, err := e.NewCell(context.Background(), abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Run(context.Background(), src, "cell.js")
}

func runValue(t *testing.T, src string) abi.Step {
	t.Helper()
	c, s := run(t, engine(t), &testHost{}, src)
	c.Close(context.Background())
	return s
}

func TestCellValues(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"return", "return 1 + 2", "3"},
		{"trailing expression is null", "1 + 2", "null"},
		{"undefined", "return undefined", "null"},
		{"await", "const x = await Promise.resolve(41); return x + 1", "42"},
		{"object", `return {a: [1, "x", null], b: true}`, `{"a":[1,"x",null],"b":true}`},
		{"bigint", "return 10n", `"10"`},
		{"function", "return function f() {}", `"function f() {}"`},
		{"symbol", "return Symbol('s')", `"Symbol(s)"`},
		{"error", "return new TypeError('bad')", `{"name":"TypeError","message":"bad"}`},
		{"cycle", "const a = {}; a.a = a; return a", `"[object Object]"`},
		{"negative zero", "return -0", "0"},
		{"nan", "return [NaN, Infinity]", "[null,null]"},
		{"lone surrogate", `return "\ud800"`, `"\ud800"`},
		{"no leak of top-level let", "let x = 1; return typeof globalThis.x", `"undefined"`},
		{"no host reach", "return [typeof require, typeof process, typeof fetch, typeof std, typeof os, typeof __cm_host_request, typeof __cm_host_emit]",
			`["undefined","undefined","undefined","undefined","undefined","undefined","undefined"]`},
		{"date is real time", "return Date.now() > 1.7e12", "true"},
		{"timezone is UTC", "return new Date(0).getTimezoneOffset()", "0"},
		{"break out of wrapper", "return 1\n})(); (() => { return 7", "7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := runValue(t, tc.src)
			if s.Status != abi.StepCompleted || s.Value != tc.want {
				t.Fatalf("got %v %q %v, want %q", s.Status, s.Value, s.Failure, tc.want)
			}
		})
	}
}

func TestCellFailures(t *testing.T) {
	cases := []struct {
		name, src string
		kind      abi.FailureKind
		msg       string
	}{
		{"throw", "throw new TypeError('boom')", abi.FailureGuestException, "TypeError: boom"},
		{"throw string", "throw 'plain'", abi.FailureGuestException, "plain"},
		{"throw null", "throw null", abi.FailureGuestException, "null"},
		{"syntax", "return (", abi.FailureGuestException, "SyntaxError: "},
		{"reject", "await Promise.reject(new RangeError('no'))", abi.FailureGuestException, "RangeError: no"},
		{"stack overflow", "function f(n) { return f(n + 1) + 1 } return f(0)", abi.FailureStackOverflow, "RangeError: Maximum call stack size exceeded"},
		{"array bomb", "const a = []; while (true) a.push({x: [1, 2, 3]});", abi.FailureMemoryLimit, "InternalError: out of memory"},
		{"buffer bomb", "return new ArrayBuffer(1e9).byteLength", abi.FailureMemoryLimit, "InternalError: out of memory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := runValue(t, tc.src)
			if s.Status != abi.StepFailed || s.Failure.Kind != tc.kind || len(s.Failure.Error()) < len(tc.msg) || s.Failure.Error()[:len(tc.msg)] != tc.msg {
				t.Fatalf("got %v %v, want %v %q", s.Status, s.Failure, tc.kind, tc.msg)
			}
		})
	}
}

func TestErrorLineNumbersMatchSource(t *testing.T) {
	s := runValue(t, "const a = 1;\nconst b = 2;\nthrow new Error('third line')")
	if s.Failure == nil || !contains(s.Failure.Stack, "cell.js:3") {
		t.Fatalf("stack %q does not point at line 3", s.Failure.Stack)
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub))
}

func TestHostRoundTrip(t *testing.T) {
	e := engine(t)
	h := &testHost{}
	c, s := run(t, e, h, `
		const b = __cm_bridge;
		b.emit("text", "start");
		const [x, y] = await Promise.all([b.request("add", "[1,2]"), b.request("add", "[3,4]")]);
		let caught;
		try { await b.request("explode", "{}"); } catch (err) { caught = err instanceof Error && err.message; }
		b.emit("json", JSON.stringify({x, y}));
		return {x, y, caught};`)
	defer c.Close(context.Background())
	if s.Status != abi.StepPending || len(h.requests) != 2 {
		t.Fatalf("want pending with 2 requests, got %v %v %d", s.Status, s.Failure, len(h.requests))
	}
	if h.requests[0].op != "add" || h.requests[0].payload != "[1,2]" {
		t.Fatalf("request %+v", h.requests[0])
	}
	ctx := context.Background()
	if s = c.Settle(ctx, 2, abi.Resolve(`{"sum":7}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s = c.Settle(ctx, 1, abi.Resolve(`3`)); s.Status != abi.StepPending || len(h.requests) != 3 {
		t.Fatal(s, len(h.requests))
	}
	s = c.Settle(ctx, 3, abi.Reject("tool exploded"))
	if s.Status != abi.StepCompleted || s.Value != `{"x":3,"y":{"sum":7},"caught":"tool exploded"}` {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
	if fmt.Sprint(h.output) != `[text:start json:{"x":3,"y":{"sum":7}}]` {
		t.Fatalf("output %v", h.output)
	}
}

func TestHostErrorsAreCatchable(t *testing.T) {
	h := &testHost{emitErr: errors.New("code mode output limit exceeded")}
	c, s := run(t, engine(t), h, `
		const out = [];
		try { __cm_bridge.request("fail", "{}"); } catch (e) { out.push(e.message); }
		try { __cm_bridge.emit("text", "x"); } catch (e) { out.push(e.message); }
		return out;`)
	defer c.Close(context.Background())
	if s.Value != `["too many pending code mode tool calls","code mode output limit exceeded"]` {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
}

func TestPendingWithoutHostWork(t *testing.T) {
	c, s := run(t, engine(t), &testHost{}, "await new Promise(() => {}); return 1")
	defer c.Close(context.Background())
	if s.Status != abi.StepPending {
		t.Fatal(s)
	}
}

func TestInterruptStopsLoops(t *testing.T) {
	for _, src := range []string{
		"while (true) {}",
		"try { while (true) {} } catch (e) {} return 'escaped'",
		"async function spin() { while (true) {} } try { await spin() } catch (e) {} return 'escaped'",
		"return /(a+)+$/.test('a'.repeat(40) + 'b')",
		"await null; for (;;) {}",
	} {
		h := &testHost{deadline: time.Now().Add(100 * time.Millisecond)}
		c, s := run(t, engine(t), h, src)
		late := time.Since(h.deadline)
		c.Close(context.Background())
		if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTimeout {
			t.Fatalf("%q: got %v %v", src, s.Status, s.Failure)
		}
		// The engine stops at the first poll after the deadline, and QuickJS
		// polls about every 0.1 ms of guest time, so the wall-clock lateness
		// is scheduling noise; BenchmarkInterruptLatency measures it. The
		// bound here only catches a guest that was never stopped.
		if h.pollsAfter != 1 || late > 2*time.Second {
			t.Errorf("%q stopped %v after the deadline, after %d stop answers", src, late, h.pollsAfter)
		}
	}
	h := &testHost{abort: true}
	c, s := run(t, engine(t), h, "while (true) {}")
	c.Close(context.Background())
	if s.Failure == nil || s.Failure.Kind != abi.FailureAborted || !errors.Is(s.Failure, abi.CodeAborted) {
		t.Fatalf("abort: %v", s.Failure)
	}
}

func TestInstanceSurvivesLimits(t *testing.T) {
	e := engine(t)
	for _, src := range []string{
		"function f() { return f() } f()",
		"let s = 'x'; while (true) s += s;",
		"const a = []; while (true) a.push(new Array(1000).fill(1));",
	} {
		c, s := run(t, e, &testHost{}, src)
		if s.Status != abi.StepFailed {
			t.Fatalf("%q: %v", src, s)
		}
		// The same instance still runs code before it goes back to the pool.
		in := c.(*cell).in
		res, exc := in.eval("1 + 2", "probe.js")
		if exc != 0 || in.call32(in.fn.isException, uint64(res)) != 0 {
			t.Fatalf("%q: instance unusable afterwards", src)
		}
		in.freeValue(res)
		c.Close(context.Background())
	}
	if s := runValue(t, "return 5"); s.Value != "5" {
		t.Fatal(s)
	}
}

func TestTrapKillsOnlyItsInstance(t *testing.T) {
	e := engine(t)
	c, err := e.NewCell(context.Background(), abi.Limits{}, &testHost{})
	if err != nil {
		t.Fatal(err)
	}
	in := c.(*cell).in
	in.sp.Set(16) // the next call runs off the bottom of the C stack
	s := c.Run(context.Background(), "return 1", "cell.js")
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTrap || !errors.Is(s.Failure, abi.CodeRuntimeUnavailable) {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	c.Close(context.Background())
	for range 2*e.opts.MaxIdle + 1 { // the dead instance is never handed out again
		c, s := run(t, e, &testHost{}, "return 2")
		if c.(*cell).in == in || s.Value != "2" {
			t.Fatal("trapped instance reused or pool broken")
		}
		c.Close(context.Background())
	}
}

func TestMathRandomDiffersAcrossCellsAndRestores(t *testing.T) {
	e := engine(t)
	seen := map[string]bool{}
	for range 20 {
		s := runValue(t, "return [Math.random(), Math.random()]")
		if seen[s.Value] {
			t.Fatalf("Math.random repeated %s", s.Value)
		}
		seen[s.Value] = true
	}
	h := &testHost{}
	c, s := run(t, e, h, "await __cm_bridge.request('x', '1'); return Math.random()")
	if s.Status != abi.StepPending {
		t.Fatal(s)
	}
	img, err := c.Snapshot(context.Background())
	c.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]bool{}
	for range 5 {
		r, err := e.Restore(context.Background(), img, abi.Limits{}, h)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Settle(context.Background(), 1, abi.Resolve("1"))
		r.Close(context.Background())
		if values[s.Value] {
			t.Fatalf("restores repeated Math.random %s", s.Value)
		}
		values[s.Value] = true
	}
}

func TestWatchdogQuarantinesOverrunningInstance(t *testing.T) {
	e, err := New(context.Background(), &Options{CacheDir: cacheForTests(), WatchdogGrace: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	h := &testHost{block: 400 * time.Millisecond} // a host call that never should block
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c, err := e.NewCell(ctx, abi.Limits{}, h)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Run(ctx, "await __cm_bridge.request('slow', '{}')", "cell.js")
	c.Close(ctx)
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureUnavailable || e.Quarantined() != 1 {
		t.Fatalf("got %v %v, quarantined %d", s.Status, s.Failure, e.Quarantined())
	}
}

func TestTemplateIsDeterministic(t *testing.T) {
	e2, err := New(context.Background(), &Options{CacheDir: cacheForTests()})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close(context.Background())
	if e2.TemplateHash() != engine(t).TemplateHash() {
		t.Fatal("two engines built different templates: snapshots would not be portable")
	}
	if v := e2.QuickJSVersion(); v == "" {
		t.Fatal("no QuickJS version")
	}
}

func TestEngineClose(t *testing.T) {
	e, err := New(context.Background(), &Options{CacheDir: cacheForTests()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewCell(context.Background(), abi.Limits{}, nil); !errors.Is(err, abi.CodeRuntimeUnavailable) {
		t.Fatalf("closed engine gave %v", err)
	}
}

func TestOutOfMemoryInAnUnhandledJobFailsTheCell(t *testing.T) {
	e := engine(t)
	c, err := e.NewCell(context.Background(), abi.Limits{MemoryBytes: 4 << 20}, &testHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	// A growing chain of jobs runs out of memory in a job whose rejection
	// nobody handles; the cell's own promise would stay pending forever.
	s := c.Run(context.Background(), "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {})", "cell.js")
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureMemoryLimit {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
}
