package enginetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

func testCellValues(t *testing.T, tg *Target) {
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
		{"long string", "return 'x'.repeat(10000).length", "10000"},
		{"no leak of top-level let", "let x = 1; return typeof globalThis.x", `"undefined"`},
		{"no host reach", "return [typeof require, typeof process, typeof module, typeof std, typeof os, typeof __cm_host_request, typeof __cm_host_emit]",
			`["undefined","undefined","undefined","undefined","undefined","undefined","undefined"]`},
		{"date is real time", "return Date.now() > 1.7e12", "true"},
		{"timezone is UTC", "return new Date(0).getTimezoneOffset()", "0"},
		{"break out of wrapper", "return 1\n})(); (() => { return 7", "7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := runValue(t, tg, tc.src)
			if s.Status != abi.StepCompleted || s.Value != tc.want {
				t.Fatalf("got %v %q %v, want %q", s.Status, s.Value, s.Failure, tc.want)
			}
		})
	}
}

func testCellFailures(t *testing.T, tg *Target) {
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
			s := runValue(t, tg, tc.src)
			if s.Status != abi.StepFailed || s.Failure.Kind != tc.kind || !strings.HasPrefix(s.Failure.Error(), tc.msg) {
				t.Fatalf("got %v %v, want %v %q", s.Status, s.Failure, tc.kind, tc.msg)
			}
		})
	}
}

func testErrorLineNumbersMatchSource(t *testing.T, tg *Target) {
	s := runValue(t, tg, "const a = 1;\nconst b = 2;\nthrow new Error('third line')")
	if s.Failure == nil || !strings.Contains(s.Failure.Stack, "cell.js:3") {
		t.Fatalf("stack %q does not point at line 3", s.Failure.Stack)
	}
}

// QuickJS's largest stack limit must overflow before the runtime's native
// stack does: a RangeError, not a trap.
func testStackLimitAtMaximum(t *testing.T, tg *Target) {
	c, err := tg.Shared(t).NewCell(context.Background(), abi.Limits{StackBytes: driver.MaxStackBytes}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	s := c.Run(context.Background(), "function f(n) { return f(n + 1) + 1 } try { f(0) } catch (e) { return e.name }", "cell.js")
	if s.Value != `"RangeError"` {
		t.Fatalf("got %v %q %v", s.Status, s.Value, s.Failure)
	}
}

func testHostRoundTrip(t *testing.T, tg *Target) {
	h := &Host{}
	c, s := RunCell(t, tg.Shared(t), h, `
		const b = __cm_bridge;
		b.emit("text", "start");
		const [x, y] = await Promise.all([b.request("add", "[1,2]"), b.request("add", "[3,4]")]);
		let caught;
		try { await b.request("explode", "{}"); } catch (err) { caught = err instanceof Error && err.message; }
		b.emit("json", JSON.stringify({x, y}));
		return {x, y, caught};`)
	defer c.Close(context.Background())
	if s.Status != abi.StepPending || len(h.Requests) != 2 {
		t.Fatalf("want pending with 2 requests, got %v %v %d", s.Status, s.Failure, len(h.Requests))
	}
	if h.Requests[0].Op != "add" || h.Requests[0].Payload != "[1,2]" {
		t.Fatalf("request %+v", h.Requests[0])
	}
	ctx := context.Background()
	if s = c.Settle(ctx, 2, abi.Resolve(`{"sum":7}`)); s.Status != abi.StepPending {
		t.Fatal(s)
	}
	if s = c.Settle(ctx, 1, abi.Resolve(`3`)); s.Status != abi.StepPending || len(h.Requests) != 3 {
		t.Fatal(s, len(h.Requests))
	}
	s = c.Settle(ctx, 3, abi.Reject("tool exploded"))
	if s.Status != abi.StepCompleted || s.Value != `{"x":3,"y":{"sum":7},"caught":"tool exploded"}` {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
	if fmt.Sprint(h.Output) != `[text:start json:{"x":3,"y":{"sum":7}}]` {
		t.Fatalf("output %v", h.Output)
	}
}

func testHostErrorsAreCatchable(t *testing.T, tg *Target) {
	h := &Host{EmitErr: errors.New("code mode output limit exceeded")}
	c, s := RunCell(t, tg.Shared(t), h, `
		const out = [];
		try { __cm_bridge.request("fail", "{}"); } catch (e) { out.push(e.message); }
		try { __cm_bridge.emit("text", "x"); } catch (e) { out.push(e.message); }
		return out;`)
	defer c.Close(context.Background())
	if s.Value != `["too many pending code mode tool calls","code mode output limit exceeded"]` {
		t.Fatalf("%v %q %v", s.Status, s.Value, s.Failure)
	}
}

// panicHost panics in Emit, as a buggy host might.
type panicHost struct{ Host }

func (*panicHost) Emit(abi.OutputKind, string) error { panic("host bug") }

func testHostPanicRetiresInstance(t *testing.T, tg *Target) {
	c, s := RunCell(t, tg.Shared(t), &panicHost{}, "__cm_bridge.emit('text', 'x'); return 1")
	c.Close(context.Background())
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTrap || !strings.Contains(s.Failure.Message, "host bug") {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	if s := runValue(t, tg, "return 3"); s.Value != "3" {
		t.Fatal(s)
	}
}

func testPendingWithoutHostWork(t *testing.T, tg *Target) {
	c, s := RunCell(t, tg.Shared(t), &Host{}, "await new Promise(() => {}); return 1")
	defer c.Close(context.Background())
	if s.Status != abi.StepPending {
		t.Fatal(s)
	}
}

func testInterruptStopsLoops(t *testing.T, tg *Target) {
	for _, src := range []string{
		"while (true) {}",
		"try { while (true) {} } catch (e) {} return 'escaped'",
		"async function spin() { while (true) {} } try { await spin() } catch (e) {} return 'escaped'",
		"return /(a+)+$/.test('a'.repeat(40) + 'b')",
		"await null; for (;;) {}",
	} {
		h := &Host{Deadline: time.Now().Add(100 * time.Millisecond)}
		c, s := RunCell(t, tg.Shared(t), h, src)
		c.Close(context.Background())
		if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureTimeout {
			t.Fatalf("%q: got %v %v", src, s.Status, s.Failure)
		}
		// The engine stops at the first poll after the deadline: QuickJS's
		// own, not the stop past the grace period. How late that is, is
		// measured by BenchInterruptLatency.
		if h.PollsAfter != 1 {
			t.Errorf("%q stopped after %d stop answers", src, h.PollsAfter)
		}
	}
	c, s := RunCell(t, tg.Shared(t), &Host{Abort: true}, "while (true) {}")
	c.Close(context.Background())
	if s.Failure == nil || s.Failure.Kind != abi.FailureAborted || !errors.Is(s.Failure, abi.CodeAborted) {
		t.Fatalf("abort: %v", s.Failure)
	}
}

func testOutOfMemoryInAnUnhandledJob(t *testing.T, tg *Target) {
	c, err := tg.Shared(t).NewCell(context.Background(), abi.Limits{MemoryBytes: 4 << 20}, &Host{})
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

// QuickJS's own limit is set above the runtime's memory cap: the runtime
// refuses memory.grow and the guest sees out of memory, not a host crash.
func testMemoryCapBelowQuickJSLimit(t *testing.T, tg *Target) {
	const maxMemory = 8 << 20
	e := tg.Fresh(t, Options{MaxMemoryBytes: maxMemory})
	c, err := e.NewCell(context.Background(), abi.Limits{}, &Host{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	in := driver.CellInstance(c)
	in.SetLimits(abi.Limits{MemoryBytes: 1 << 30, StackBytes: 512 << 10})
	s := c.Run(context.Background(), "const a = []; while (true) a.push(new Array(1e5).fill(1));", "cell.js")
	if s.Status != abi.StepFailed || s.Failure.Kind != abi.FailureMemoryLimit {
		t.Fatalf("got %v %v", s.Status, s.Failure)
	}
	capacity := (driver.Config{MaxMemoryBytes: maxMemory}).MemoryCap()
	if n := len(in.Module().Memory()); uint64(n) > capacity {
		t.Fatalf("memory grew to %d bytes past the cap %d", n, capacity)
	}
}
