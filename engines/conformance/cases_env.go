package conformance

// envCases check the host-backed environment (abi/env.js): what each global
// asks of the host, and what it does with the answer. The host side (when a
// timer is due, where stored values live) is the host's; here the scripted
// host stands in for it.
func envCases() []Case {
	script := func(c Case, actions ...Action) Case { c.Script = actions; return c }
	snap := func(name, src, want string, actions ...Action) Case {
		return Case{Name: name, Source: src, Needs: needSnapshot, Script: actions, Want: want}
	}
	return []Case{
		// Timers.
		script(ok("env/setTimeout asks the host and fires", `
const log = [];
const id = setTimeout((a, b) => log.push(a + b), 25, 1, 2);
await new Promise((r) => setTimeout(r, 0));
return [typeof id, log]`, `["number",[3]]`), Resolve(1, `null`), Resolve(2, `null`)),
		{Name: "env/setTimeout requests", Source: `setTimeout(() => {}, 1500.7); setTimeout(() => {}, -5); setTimeout(() => {}, "x"); return 1`,
			Want: `{"status":"completed","value":1,"requests":["timer {\"id\":1,\"ms\":1500}","timer {\"id\":2,\"ms\":0}","timer {\"id\":3,\"ms\":0}"]}`},
		script(ok("env/clearTimeout tells the host and the callback never runs", `
let ran = false;
const id = setTimeout(() => { ran = true }, 10);
clearTimeout(id);
clearTimeout(id);
clearTimeout(12345);
await new Promise((r) => setTimeout(r, 0));
return ran`, `false`), Resolve(1, `null`), Resolve(3, `null`)),
		{Name: "env/clearTimeout requests", Source: `clearTimeout(setTimeout(() => {}, 10)); return 1`,
			Want: `{"status":"completed","value":1,"requests":["timer {\"id\":1,\"ms\":10}","timer_clear {\"id\":1}"]}`},
		script(ok("env/setInterval re-arms until cleared", `
let n = 0;
await new Promise((done) => { const id = setInterval(() => { if (++n === 3) { clearInterval(id); done(); } }, 5); });
return n`, `3`), Resolve(1, `null`), Resolve(2, `null`), Resolve(3, `null`)),
		fails("env/setTimeout needs a function", `setTimeout("return 1", 5)`,
			`{"kind":"guest-exception","name":"TypeError","message":"setTimeout needs a function as its first argument","line":1}`),
		script(Case{Name: "env/a throwing timer callback is reported, not fatal", Source: `setTimeout(() => { throw new RangeError("boom") }, 0); await new Promise((r) => setTimeout(r, 0)); return "after"`,
			Want: `{"status":"completed","value":"after","output":["text:Uncaught RangeError: boom (in a timer callback)"]}`}, Resolve(1, `null`), Resolve(2, `null`)),
		snap("env/timer survives a snapshot", `
let fired = "";
const id = setTimeout((v) => { fired = v }, 60000, "late");
const other = setTimeout(() => { fired = "cleared one ran" }, 60000);
await __cm_bridge.request("a", "1");
clearTimeout(other);
await new Promise((r) => setTimeout(r, 0));
return [fired, id, other]`, `{"status":"completed","value":["late",1,2]}`,
			Snapshot(), Resolve(3, `0`), Resolve(1, `null`), Resolve(5, `null`)),

		// store and load.
		{Name: "env/store and load requests", Source: `await Promise.all([store("k", {a: [1, "x"]}), store("gone", undefined), load("k")]); return 1`,
			Script: []Action{Resolve(1, `null`), Resolve(2, `null`), Resolve(3, `[{"a":[1,"x"]}]`)},
			Want:   `{"status":"completed","value":1,"requests":["store {\"key\":\"k\",\"value\":{\"a\":[1,\"x\"]}}","store {\"key\":\"gone\"}","load {\"key\":\"k\"}"]}`},
		script(ok("env/load gives the value or undefined", `return [await load("a"), await load("b"), await store("c", 1)]`, `[{"x":1},null,null]`),
			Resolve(1, `[{"x":1}]`), Resolve(2, `[]`), Resolve(3, `null`)),
		script(ok("env/load of a missing key is undefined", `return typeof (await load("nope"))`, `"undefined"`), Resolve(1, `[]`)),
		ok("env/store refuses bad keys and values", `
const out = [];
for (const f of [() => store("", 1), () => store(1, 1), () => store("k".repeat(257), 1), () => load(null),
  () => { const o = {}; o.o = o; return store("k", o) }, () => store("k", () => 1)]) {
  try { f(); out.push("accepted") } catch (e) { out.push(e.name) }
}
return out`, `["TypeError","TypeError","TypeError","TypeError","TypeError","TypeError"]`),
		snap("env/store and load survive a snapshot", `
const before = await load("k");
await store("k", before + 1);
return await load("k")`, `{"status":"completed","value":42}`,
			Resolve(1, `[40]`), Snapshot(), Resolve(2, `null`), Snapshot(), Resolve(3, `[42]`)),

		// crypto.
		ok("env/crypto.randomUUID is a version 4 UUID", `const u = crypto.randomUUID(); return [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u === crypto.randomUUID()]`, `[true,false]`),
		ok("env/crypto.getRandomValues fills integer arrays", `
const a = crypto.getRandomValues(new Uint8Array(4096));
const counts = new Array(256).fill(0);
for (const b of a) counts[b]++;
const w = crypto.getRandomValues(new Uint32Array(8));
return [a.length, Math.max(...counts) < 64, new Set(w).size > 4, crypto.getRandomValues(new Int16Array(2)) instanceof Int16Array]`, `[4096,true,true,true]`),
		ok("env/crypto.getRandomValues refuses floats and big requests", `
const out = [];
for (const f of [() => crypto.getRandomValues(new Float64Array(1)), () => crypto.getRandomValues([1]), () => crypto.getRandomValues(new Uint8Array(65537))]) {
  try { f(); out.push("accepted") } catch (e) { out.push(e.name) }
}
return out`, `["TypeError","TypeError","RangeError"]`),
		snap("env/crypto after restore differs from before", `
const a = crypto.randomUUID();
await __cm_bridge.request("a", "1");
return a !== crypto.randomUUID()`, `{"status":"completed","value":true}`, Snapshot(), Resolve(1, `0`)),

		// The network globals only say where to go.
		ok("env/fetch rejects with the way in", `try { await fetch("https://example.com") } catch (e) { return [e.name, e.message.includes("no network access"), e.message.includes("tools.search")] }`,
			`["TypeError",true,true]`),
		ok("env/XMLHttpRequest and WebSocket throw with the way in", `
const out = [];
for (const C of [XMLHttpRequest, WebSocket]) { try { new C("ws://x") } catch (e) { out.push(e.message.includes("MCP.")) } }
return out`, `[true,true]`),
	}
}
