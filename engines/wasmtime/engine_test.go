//go:build wasmtime

package wasmtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
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
		shared, sharedErr = New(context.Background(), &Options{CacheDir: os.Getenv(CacheDirEnv), Limits: abi.Limits{MemoryBytes: 16 << 20}})
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func run(t testing.TB, e abi.Engine, h abi.Host, src string) (abi.Cell, abi.Step) {
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
		{"await", "const x = await Promise.resolve(41); return x + 1", "42"},
		{"object", `return {a: [1, "x", null], b: true}`, `{"a":[1,"x",null],"b":true}`},
		{"bigint", "return 10n", `"10"`},
		{"error", "return new TypeError('bad')", `{"name":"TypeError","message":"bad"}`},
		{"lone surrogate", `return "\ud800"`, `"\ud800"`},
		{"long string", "return 'x'.repeat(10000).length", "10000"},
		{"no host reach", "return [typeof require, typeof process, typeof fetch, typeof __cm_host_request, typeof __cm_host_emit]",
			`["undefined","undefined","undefined","undefined","undefined"]`},
		{"date is real time", "return Date.now() > 1.7e12", "true"},
		{"timezone is UTC", "return new Date(0).getTimezoneOffset()", "0"},
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
		{"throw null", "throw null", abi.FailureGuestException, "null"},
		{"syntax", "return (", abi.FailureGuestException, "SyntaxError: "},
		{"stack overflow", "function f(n) { return f(n + 1) + 1 } return f(0)", abi.FailureStackOverflow, "RangeError: Maximum call stack size exceeded"},
		{"array bomb", "const a = []; while (true) a.push({x: [1, 2, 3]});", abi.FailureMemoryLimit, "InternalError: out of memory"},
		{"buffer bomb", "return new ArrayBuffer(1e9).byteLength", abi.FailureMemoryLimit, "InternalError: out of memory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := runValue(t, tc.src)
			if s.Status != abi.StepFailed || s.Failure.Kind != tc.kind || !strings.HasPrefix(s.Failure.Error(), tc.msg) {
				t.Fatalf("got %v %v, want %v %q", s.Status, s.Failure, tc.kind, tc.msg)
			}
		})
	}
}

func TestStackLimitAtMaximum(t *testing.T) {
	// QuickJS's largest stack limit must overflow before wasmtime's native
	// stack does: a RangeError, not a trap.
	c, err := engine(t).NewCell(context.Background(), abi.Limits{StackBytes: maxStack}, &testHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	s := c.Run(context.Background(), "function f(n) { return f(n + 1) + 1 } try { f(0) } catch (e) { return e.name }", "cell.js")
	if s.Value != `"RangeError"` {
		t.Fatalf("got %v %q %v", s.Status, s.Value, s.Failure)
	}
}

func TestHostRoundTrip(t *testing.T) {
	h := &testHost{}
	c, s := run(t, engine(t), h, `
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

func TestInterruptStopsLoops(t *testing.T) {
	for _, src := range []string{
		"while (true) {}",
		"try { while (true) {} } catch (e) {} return 'escaped'",
		"return /(a+)+$/.test('a'.repeat(40) + 'b')",
		"await null; for (;;) {}",
	} {
		h := &testHost{deadline: time.Now().Add(100 * time.Millisecond)}
		c, s := run(t, engine(t), h, src)
		c.Close(context.Background())
		if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTimeout {
			t.Fatalf("%q: got %v %v", src, s.Status, s.Failure)
		}
	}
	c, s := run(t, engine(t), &testHost{abort: true}, "while (true) {}")
	c.Close(context.Background())
	if s.Failure == nil || s.Failure.Kind != abi.FailureAborted || !errors.Is(s.Failure, abi.CodeAborted) {
		t.Fatalf("abort: %v", s.Failure)
	}
}

// deafHost never asks the guest to stop, so only the context deadline and
// wasmtime's epoch interruption can.
type deafHost struct{ testHost }

func (*deafHost) ShouldInterrupt() abi.Interrupt { return abi.InterruptNone }

func TestEpochStopsGuestPastItsDeadline(t *testing.T) {
	e, err := New(context.Background(), &Options{CacheDir: os.Getenv(CacheDirEnv), WatchdogGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	for _, tc := range []struct {
		name, src string
		host      abi.Host
	}{
		{"busy loop", "while (true) {}", &deafHost{}},
		{"blocking host call", "await __cm_bridge.request('slow', '{}'); while (true) {}", &deafHost{testHost{block: 200 * time.Millisecond}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			c, err := e.NewCell(ctx, abi.Limits{}, tc.host)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			s := c.Run(ctx, tc.src, "cell.js")
			took := time.Since(start)
			c.Close(ctx)
			if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTimeout || !errors.Is(s.Failure, abi.CodeTimeout) {
				t.Fatalf("got %v %v", s.Status, s.Failure)
			}
			if took > 5*time.Second {
				t.Fatalf("stopped only after %v", took)
			}
		})
	}
	if e.Stopped() != 2 {
		t.Fatalf("stopped %d calls, want 2", e.Stopped())
	}
	if c, s := run(t, e, &testHost{}, "return 5"); s.Value != "5" {
		t.Fatal(s)
	} else {
		c.Close(context.Background())
	}
}

func TestStoreLimiterCapsMemory(t *testing.T) {
	// QuickJS's own limit is set above the store's cap: the limiter refuses
	// memory.grow and the guest sees out of memory, not a host crash.
	e, err := New(context.Background(), &Options{CacheDir: os.Getenv(CacheDirEnv), MaxMemoryBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	c, err := e.NewCell(context.Background(), abi.Limits{}, &testHost{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	c.(*cell).in.applyLimits(abi.Limits{MemoryBytes: 1 << 30, StackBytes: defaultStack})
	s := c.Run(context.Background(), "const a = []; while (true) a.push(new Array(1e5).fill(1));", "cell.js")
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureMemoryLimit {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	if n := c.(*cell).in.mem.DataSize(c.(*cell).in.store); n > 8<<20+memoryHeadroom {
		t.Fatalf("memory grew to %d bytes past the store limit", n)
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
		in := c.(*cell).in
		res, exc := in.eval("1 + 2", "probe.js")
		if exc != 0 || in.call(&in.fn.isException, res) != 0 {
			t.Fatalf("%q: instance unusable afterwards", src)
		}
		in.freeValue(res)
		c.Close(context.Background())
	}
}

func TestTrapKillsOnlyItsInstance(t *testing.T) {
	e := engine(t)
	c, err := e.NewCell(context.Background(), abi.Limits{}, &testHost{})
	if err != nil {
		t.Fatal(err)
	}
	in := c.(*cell).in
	in.setSP(16) // the next call runs off the bottom of the C stack
	s := c.Run(context.Background(), "return 1", "cell.js")
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTrap || !errors.Is(s.Failure, abi.CodeRuntimeUnavailable) {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	c.Close(context.Background())
	for range 2*e.opts.MaxIdle + 1 {
		c, s := run(t, e, &testHost{}, "return 2")
		if c.(*cell).in == in || s.Value != "2" {
			t.Fatal("trapped instance reused or pool broken")
		}
		c.Close(context.Background())
	}
}

func TestMathRandomDiffersAcrossCells(t *testing.T) {
	seen := map[string]bool{}
	for range 20 {
		s := runValue(t, "return [Math.random(), Math.random()]")
		if seen[s.Value] {
			t.Fatalf("Math.random repeated %s", s.Value)
		}
		seen[s.Value] = true
	}
}

func TestResetCleansState(t *testing.T) {
	e := engine(t)
	c, _ := run(t, e, &testHost{}, "globalThis.junk = new Uint8Array(1 << 20).fill(7); Object.prototype.evil = 1; return 1")
	c.Close(context.Background())
	for range 2 * e.opts.MaxIdle {
		if s := runValue(t, "return [typeof junk, ({}).evil === undefined]"); s.Value != `["undefined",true]` {
			t.Fatalf("state leaked between cells: %s", s.Value)
		}
	}
}

func TestCellsInParallel(t *testing.T) {
	e := engine(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				h := &testHost{}
				c, err := e.NewCell(context.Background(), abi.Limits{}, h)
				if err != nil {
					errs <- err
					return
				}
				s := c.Run(context.Background(), fmt.Sprintf("return (await __cm_bridge.request('x', '%d')) + %d", g, i), "cell.js")
				if s.Status == abi.StepPending && i%2 == 0 {
					img, err := c.Snapshot(context.Background())
					c.Close(context.Background())
					if err != nil {
						errs <- err
						return
					}
					if c, err = e.Restore(context.Background(), img, abi.Limits{}, h); err != nil {
						errs <- err
						return
					}
				}
				s = c.Settle(context.Background(), 1, abi.Resolve(fmt.Sprint(g*1000)))
				c.Close(context.Background())
				if want := fmt.Sprint(g*1000 + i); s.Value != want {
					errs <- fmt.Errorf("goroutine %d cell %d: got %q %v, want %s", g, i, s.Value, s.Failure, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestEngineClose(t *testing.T) {
	e, err := New(context.Background(), &Options{CacheDir: os.Getenv(CacheDirEnv)})
	if err != nil {
		t.Fatal(err)
	}
	if v := e.QuickJSVersion(); v == "" {
		t.Fatal("no QuickJS version")
	}
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewCell(context.Background(), abi.Limits{}, nil); !errors.Is(err, abi.CodeRuntimeUnavailable) {
		t.Fatalf("closed engine gave %v", err)
	}
}

// panicHost panics in Emit, as a buggy host might.
type panicHost struct{ testHost }

func (*panicHost) Emit(abi.OutputKind, string) error { panic("host bug") }

func TestHostPanicRetiresInstance(t *testing.T) {
	c, s := run(t, engine(t), &panicHost{}, "__cm_bridge.emit('text', 'x'); return 1")
	c.Close(context.Background())
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTrap || !strings.Contains(s.Failure.Message, "host bug") {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	if s := runValue(t, "return 3"); s.Value != "3" {
		t.Fatal(s)
	}
}
