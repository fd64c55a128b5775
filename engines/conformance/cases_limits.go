package conformance

import (
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// Short deadlines keep the suite fast; the host interrupts this long after
// Run starts.
const deadline = 20 * time.Millisecond

// limitCases cover interrupts (uncatchable deadline and abort), stack
// overflow and the memory limit.
func limitCases() []Case {
	timeout := `{"status":"failed","failure":{"kind":"timeout","message":"interrupted: deadline exceeded"}}`
	aborted := `{"status":"failed","failure":{"kind":"aborted","message":"interrupted: aborted"}}`
	interrupt := func(name, src string, reason abi.Interrupt, want string) Case {
		return Case{Name: name, Source: src, Needs: needInterrupt, Interrupt: reason, InterruptAfter: deadline, Want: want}
	}
	overflow := `{"status":"failed","failure":{"kind":"stack-overflow","name":"RangeError","message":"Maximum call stack size exceeded"}}`
	oom := `{"status":"failed","failure":{"kind":"memory-limit","name":"InternalError","message":"out of memory"}}`
	memory := func(name, src string) Case {
		return Case{Name: name, Source: src, Needs: needMemory, Limits: abi.Limits{MemoryBytes: 8 << 20}, Want: oom}
	}
	return []Case{
		interrupt("interrupt/deadline stops a loop", `while (true) {}`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/uncatchable by try", `try { while (true) {} } catch (e) {} return "escaped"`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/finally does not escape", `try { while (true) {} } finally { return "escaped" }`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/uncatchable through await", `async function spin() { while (true) {} } try { await spin() } catch (e) {} return "escaped"`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/loop in a job", `await null; for (;;) {}`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/loop in a then callback", `Promise.resolve().then(() => { for (;;) {} }); return 1`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/recursion with catch", `function f() { try { while (true) {} } catch (e) { return f() } } return f()`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/loop in a getter during encode", `return { get x() { for (;;) {} } }`, abi.InterruptDeadline, timeout),
		interrupt("interrupt/abort", `while (true) {}`, abi.InterruptAbort, aborted),
		interrupt("interrupt/abort with catch", `for (;;) { try { for (;;) {} } catch (e) {} }`, abi.InterruptAbort, aborted),
		interrupt("interrupt/catastrophic regex", `return /(a+)+$/.test("a".repeat(40) + "b")`, abi.InterruptDeadline, timeout),
		with(interrupt("interrupt/deadline not reached", `let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s`, abi.InterruptDeadline, `{"status":"completed","value":4999950000}`), func(c *Case) {
			c.InterruptAfter = time.Minute
		}),
		with(interrupt("interrupt/abort during settle", `await __cm_bridge.request("x", "1"); while (true) {}`, abi.InterruptNone, aborted), func(c *Case) {
			c.Script = []Action{InterruptNow(abi.InterruptAbort), Resolve(1, `0`)}
		}),
		with(interrupt("interrupt/deadline during settle callback", `await __cm_bridge.request("x", "1").then(() => { for (;;) {} })`, abi.InterruptNone, timeout), func(c *Case) {
			c.Script = []Action{InterruptNow(abi.InterruptDeadline), Resolve(1, `0`)}
		}),
		with(interrupt("interrupt/cell stays failed", `await __cm_bridge.request("x", "1"); for (;;) {}`, abi.InterruptNone, timeout), func(c *Case) {
			c.Script = []Action{InterruptNow(abi.InterruptDeadline), Resolve(1, `0`), Resolve(2, `0`)}
		}),
		with(interrupt("interrupt/output before the interrupt is kept", `__cm_bridge.emit("text", "started"); while (true) {}`, abi.InterruptDeadline, ""), func(c *Case) {
			c.Want = `{"status":"failed","failure":{"kind":"timeout","message":"interrupted: deadline exceeded"},"output":["text:started"]}`
		}),

		// Stack.
		{Name: "stack/overflow", Source: `function f(n) { return f(n + 1) + 1 } return f(0)`, Needs: needStack, Want: overflow},
		{Name: "stack/overflow after await", Source: `await null; function f() { return f() } f()`, Needs: needStack, Want: overflow},
		{Name: "stack/overflow is catchable", Source: `function f() { return f() } try { f() } catch (e) { return [e instanceof RangeError, e.message] }`, Needs: needStack,
			Want: `{"status":"completed","value":[true,"Maximum call stack size exceeded"]}`},
		{Name: "stack/mutual recursion overflow", Source: `const a = n => b(n + 1), b = n => a(n + 1); a(0)`, Needs: needStack, Want: overflow},
		{Name: "stack/deep recursion within the default limit", Source: `function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(1000)`, Needs: needStack,
			Want: `{"status":"completed","value":1000}`},
		{Name: "stack/small limit", Source: `function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(5000)`, Needs: needStack,
			Limits: abi.Limits{StackBytes: 32 << 10}, Want: overflow},
		{Name: "stack/cell usable after a caught overflow", Source: `function f() { return f() } try { f() } catch (e) {} function g(n) { return n ? g(n - 1) + 1 : 0 } return g(100)`, Needs: needStack,
			Want: `{"status":"completed","value":100}`},

		// Memory.
		memory("memory/array bomb", `const a = []; while (true) a.push({ x: [1, 2, 3] })`),
		memory("memory/buffer bomb", `return new ArrayBuffer(1e9).byteLength`),
		memory("memory/string doubling", `let s = "x"; while (true) s += s`),
		memory("memory/uncatchable", `const a = []; try { while (true) a.push(new Array(1000).fill(1)) } catch (e) { return "caught" }`),
		{Name: "memory/within the limit", Source: `return new Array(1e5).fill(1).length`, Needs: needMemory, Limits: abi.Limits{MemoryBytes: 8 << 20},
			Want: `{"status":"completed","value":100000}`},
	}
}
