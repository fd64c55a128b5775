package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/tool"
)

// TestHostileCells: each gets a clear failed (or bounded) result and the host
// stays healthy: a trivial cell still runs afterwards.
func TestHostileCells(t *testing.T) {
	counter := tool.Tool{Name: "count", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: 1}, nil
	}}
	rt := newRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d, "memoryLimitBytes": 4194304, "maxOutputBytes": 4096}`, roomyTimeoutMs), counter)
	run := prepare(t, rt, RunOptions{})
	cases := []struct {
		name, src string
		code      abi.ErrorCode
		msg       string
	}{
		{"infinite loop", "while (true) {}", abi.CodeTimeout, msgTimeout},
		{"caught infinite loop", "try { while (true) {} } catch {} return 1", abi.CodeTimeout, msgTimeout},
		{"regex backtracking", "return /(a+)+$/.test('a'.repeat(50) + 'b')", abi.CodeTimeout, msgTimeout},
		{"allocation bomb", "const a = []; for (;;) a.push(new Array(1e5).fill(1.5))", abi.CodeInternalError, msgMemory},
		{"deep recursion", "const f = (n) => f(n + 1) + 1; return f(0)", abi.CodeInternalError, "RangeError: Maximum call stack size exceeded"},
		{"unawaited tool calls", "for (let i = 0; i < 10000; i++) tools.callValue('count', {}); return 1", abi.CodeInternalError, "Error: " + msgTooManyPending},
		{"never-settling promise", "await new Promise(() => {}); return 1", abi.CodeInternalError, msgNoHostWork},
		{"output flood", "for (;;) text('x'.repeat(100))", abi.CodeOutputLimitExceeded, msgOutputLimit},
		{"caught output flood", "try { for (;;) text('x'.repeat(100)) } catch {} return 1", abi.CodeOutputLimitExceeded, msgOutputLimit},
		{"huge return value", "return 'x'.repeat(100000)", abi.CodeOutputLimitExceeded, msgOutputLimit},
		{"guest throws interrupted", "throw new Error('interrupted')", abi.CodeInternalError, "Error: interrupted"},
		{"import", "return import('x')", abi.CodeInvalidInput, "code mode module access is disabled."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Only a cell whose outcome is the deadline runs under a short
			// one: the others must reach their own failure however slowly.
			if tc.code == abi.CodeTimeout {
				setLegTimeout(rt, 300*time.Millisecond)
			}
			r := exec(t, run, tc.src)
			setLegTimeout(rt, roomyTimeoutMs*time.Millisecond)
			if r.Status != StatusFailed || r.Code != tc.code || !strings.HasPrefix(r.Error, tc.msg) {
				t.Fatalf("got %s %s %q", r.Status, r.Code, r.Error)
			}
			if ok := exec(t, run, "return 'healthy'"); string(ok.Value) != `"healthy"` {
				t.Fatalf("host unhealthy afterwards: %+v", ok)
			}
		})
	}
}

func TestTimeoutDoesNotBlockTheHost(t *testing.T) {
	rt := newRuntime(t, `{"enabled": true, "timeoutMs": 200}`, shipments())
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, "for (;;) {}")
	if r.Code != abi.CodeTimeout {
		t.Fatalf("%+v", r)
	}
	setLegTimeout(rt, roomyTimeoutMs*time.Millisecond) // the healthy cell must not race a short deadline
	if ok := exec(t, run, "return 'healthy'"); string(ok.Value) != `"healthy"` {
		t.Fatalf("host unhealthy afterwards: %+v", ok)
	}
}

func TestNonJSONReturnValues(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	cases := map[string]string{
		"return 10n":                         `"10"`,
		"const a = {}; a.self = a; return a": `"[object Object]"`,
		"return () => 1":                     `"() => 1"`,
		"return Symbol.iterator":             `"Symbol(Symbol.iterator)"`,
		"return undefined":                   `null`,
		"1 + 1":                              `2`, // a trailing expression is the value
		"let x = 1":                          `null`,
		"return {get x() { throw new Error('g') }}": `"[object Object]"`,
		"return new Proxy({}, {})":                  `{}`,
	}
	for src, want := range cases {
		if r := exec(t, run, src); r.Status != StatusCompleted || string(r.Value) != want {
			t.Errorf("%s: %+v", src, r)
		}
	}
	r := exec(t, run, `json({big: 1n}); json(undefined); text({a: 1}); return 1`)
	if out, _ := json.Marshal(r.Output); string(out) != `[{"type":"json","value":"[object Object]"},{"type":"json","value":null},{"type":"text","text":"{\"a\":1}"}]` {
		t.Fatalf("output %s", out)
	}
}

func TestToolErrorsAreCatchablePlainErrors(t *testing.T) {
	boom := tool.Tool{Name: "boom", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{}, context.DeadlineExceeded
	}}
	panics := tool.Tool{Name: "panics", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) { panic("bad tool") }}
	run := prepare(t, newRuntime(t, `true`, boom, panics), RunOptions{})
	r := exec(t, run, `
		const out = [];
		for (const id of ["boom", "panics", "boo"]) {
			try { await tools.callValue(id, {}); } catch (e) { out.push([e instanceof Error, e.constructor === Error, e.message]); }
		}
		return out;`)
	want := `[[true,true,"context deadline exceeded"],[true,true,"tool call failed: bad tool"],[true,true,"Unknown tool id: boo. Did you mean: boom? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."]]`
	if string(r.Value) != want {
		t.Fatalf("%s\n%s", r.Value, r.Error)
	}
}

func TestWellFormed(t *testing.T) {
	for in, want := range map[string]string{
		`"a"`:                   `"a"`,
		`["\ud800","a\udc00b"]`: "[\"\uFFFD\",\"a\uFFFDb\"]",
		`{"\uDBFF":1}`:          "{\"\uFFFD\":1}",
		`"\\ud800"`:             `"\\ud800"`, // an escaped backslash, then text
		`"\u00e9\n"`:            `"\u00e9\n"`,
		`"\ud8"`:                `"\ud8"`,
	} {
		if got := wellFormed(in); got != want {
			t.Errorf("wellFormed(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestFailedMessagesAreBounded(t *testing.T) {
	run := prepare(t, newRuntime(t, `{"enabled": true, "maxOutputBytes": 2048}`, shipments()), RunOptions{})
	r := exec(t, run, `throw "x".repeat(1e6)`)
	if r.Status != StatusFailed || len(r.Error) > 2048+len("…") {
		t.Fatalf("error of %d bytes", len(r.Error))
	}
}

// stuckEngine is an engine whose cells never return from Run, like a guest
// builtin looping in C that no interrupt reaches.
type stuckEngine struct {
	abi.Engine
	release chan struct{}
}

func (e stuckEngine) NewCell(ctx context.Context, l abi.Limits, h abi.Host) (abi.Cell, error) {
	return stuckCell{e.release}, nil
}

type stuckCell struct{ release chan struct{} }

func (c stuckCell) Run(ctx context.Context, source, filename string) abi.Step {
	<-c.release
	return abi.Step{Status: abi.StepCompleted, Value: "1"}
}
func (c stuckCell) Settle(context.Context, abi.Ticket, abi.Outcome) abi.Step { return abi.Step{} }
func (c stuckCell) Snapshot(context.Context) ([]byte, error)                 { return nil, nil }
func (c stuckCell) Close(context.Context) error                              { return nil }

func TestLegThatNeverReturnsIsBounded(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	rt, err := New(context.Background(), &Options{CodeMode: &Config{Enabled: true, Timeout: 100 * time.Millisecond},
		Tools: []tool.Tool{shipments()}, Engine: stuckEngine{release: release}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	rt.legGrace = 50 * time.Millisecond
	r := exec(t, prepare(t, rt, RunOptions{}), "return 1")
	if r.Code != abi.CodeTimeout || r.Error != msgTimeout {
		t.Fatalf("%+v", r)
	}
}
