package conformance

import "strings"

// bridgeCases are bridge scripts: requests and their tickets, settlement
// order, rejections, unknown tickets, output order and limits, and the host
// functions the bridge removes.
func bridgeCases() []Case {
	script := func(name, src string, want string, actions ...Action) Case {
		return Case{Name: name, Source: src, Script: actions, Want: want}
	}
	const pair = `const [x, y] = await Promise.all([__cm_bridge.request("a", "1"), __cm_bridge.request("b", "2")]); return [x, y]`
	return []Case{
		script("bridge/round trip", `return await __cm_bridge.request("add", "[1,2]")`,
			`{"status":"completed","value":3,"requests":["add [1,2]"]}`, Resolve(1, `3`)),
		script("bridge/resolved JSON value", `const v = await __cm_bridge.request("get", "{}"); return [v.a, typeof v.b, v.c === null, v.d.length]`,
			`{"status":"completed","value":[1,"string",true,2]}`, Resolve(1, `{"a":1,"b":"x","c":null,"d":[1,2]}`)),
		script("bridge/resolved lone surrogate", `const s = await __cm_bridge.request("s", "{}"); return [s.length, s.charCodeAt(0)]`,
			`{"status":"completed","value":[1,55296]}`, Resolve(1, `"\ud800"`)),
		script("bridge/resolved unicode", `const s = await __cm_bridge.request("s", "{}"); return [s, s.length]`,
			`{"status":"completed","value":["é😀",3]}`, Resolve(1, `"\u00e9😀"`)),
		{Name: "bridge/request returns a promise at once", Source: `const p = __cm_bridge.request("op", "x"); return [p instanceof Promise, typeof p.then]`,
			Want: `{"status":"completed","value":[true,"function"],"requests":["op x"]}`},
		{Name: "bridge/request arguments are strings", Source: `__cm_bridge.request(1, { toString() { return "P" } }); __cm_bridge.request("n", null); return 0`,
			Want: `{"status":"completed","value":0,"requests":["1 P","n null"]}`},
		{Name: "bridge/request payload with unicode", Source: `__cm_bridge.request("u", "é😀\u2028"); return 0`,
			Want: "{\"status\":\"completed\",\"value\":0,\"requests\":[\"u é😀\u2028\"]}"},
		script("bridge/pending while a ticket is open", `const v = await __cm_bridge.request("a", "1"); return v`,
			`{"status":"pending","requests":["a 1"]}`),
		script("bridge/settle in issue order", pair, `{"status":"completed","value":["x","y"]}`, Resolve(1, `"x"`), Resolve(2, `"y"`)),
		script("bridge/settle in reverse order", pair, `{"status":"completed","value":["x","y"]}`, Resolve(2, `"y"`), Resolve(1, `"x"`)),
		script("bridge/settlement observed in settle order", `
const log = [];
const a = __cm_bridge.request("a", "1").then(v => log.push("a"));
const b = __cm_bridge.request("b", "2").then(v => log.push("b"));
await Promise.all([a, b]);
return log`, `{"status":"completed","value":["b","a"]}`, Resolve(2, `0`), Resolve(1, `0`)),
		script("bridge/microtasks run before settlement", `
const log = [];
const p = __cm_bridge.request("a", "1").then(v => log.push("a:" + v));
Promise.resolve().then(() => log.push("micro"));
await p;
log.push("after");
return log`, `{"status":"completed","value":["micro","a:1","after"]}`, Resolve(1, `1`)),
		script("bridge/jobs after settlement drain in one step", `
const log = [];
const v = await __cm_bridge.request("a", "1");
log.push(v);
await null;
await Promise.resolve().then(() => log.push("then"));
log.push("end");
return log`, `{"status":"completed","value":[1,"then","end"]}`, Resolve(1, `1`)),
		script("bridge/sequential requests", `const a = await __cm_bridge.request("a", "1"); const b = await __cm_bridge.request("b", String(a + 1)); return a + b`,
			`{"status":"completed","value":3,"requests":["a 1","b 2"]}`, Resolve(1, `1`), Resolve(2, `2`)),
		script("bridge/race settles on the first ticket", `return await Promise.race([__cm_bridge.request("slow", "1"), __cm_bridge.request("fast", "2")])`,
			`{"status":"completed","value":"fast"}`, Resolve(2, `"fast"`)),
		script("bridge/settling after completion changes nothing", `return await Promise.race([__cm_bridge.request("slow", "1"), __cm_bridge.request("fast", "2")])`,
			`{"status":"completed","value":"fast","steps":["pending","completed","completed"]}`, Resolve(2, `"fast"`), Resolve(1, `"slow"`)),
		script("bridge/rejection is a plain Error", `try { await __cm_bridge.request("x", "{}") } catch (e) { return [e instanceof Error, e.constructor === Error, e.name, e.message] }`,
			`{"status":"completed","value":[true,true,"Error","tool exploded"]}`, Reject(1, "tool exploded")),
		script("bridge/rejection message unicode", `try { await __cm_bridge.request("x", "{}") } catch (e) { return e.message }`,
			`{"status":"completed","value":"échec ✗"}`, Reject(1, "échec ✗")),
		script("bridge/rejection uncaught fails the cell", `return await __cm_bridge.request("x", "{}")`,
			`{"status":"failed","failure":{"kind":"guest-exception","name":"Error","message":"boom"}}`, Reject(1, "boom")),
		script("bridge/rejection of an unawaited ticket is ignored", `__cm_bridge.request("x", "{}"); return 1`,
			`{"status":"completed","value":1,"steps":["completed","completed"]}`, Reject(1, "nobody listens")),
		script("bridge/rejection handled with catch", `return await __cm_bridge.request("x", "{}").catch(e => "recovered: " + e.message)`,
			`{"status":"completed","value":"recovered: no"}`, Reject(1, "no")),
		script("bridge/one rejected of two", `return await Promise.allSettled([__cm_bridge.request("a", "1"), __cm_bridge.request("b", "2")]).then(r => r.map(x => x.status))`,
			`{"status":"completed","value":["rejected","fulfilled"]}`, Resolve(2, `2`), Reject(1, "no")),
		script("bridge/unknown ticket ignored", `return await __cm_bridge.request("a", "1")`,
			`{"status":"completed","value":2}`, Resolve(99, `1`), Resolve(0, `1`), Resolve(1, `2`)),
		script("bridge/double settle ignored", `const v = await __cm_bridge.request("a", "1"); await new Promise(() => {}); return v`,
			`{"status":"pending"}`, Resolve(1, `1`), Resolve(1, `2`), Reject(1, "late")),
		script("bridge/settle with bad JSON fails the cell", `try { return await __cm_bridge.request("a", "1") } catch (e) { return "caught" }`,
			`{"status":"failed","failure":{"kind":"guest-exception","name":"SyntaxError","message":"*"}}`, Resolve(1, `{bad`)),
		script("bridge/state survives between steps", `let n = 0; const tick = () => n++; tick(); await __cm_bridge.request("a", "1"); tick(); await __cm_bridge.request("b", "2"); tick(); return n`,
			`{"status":"completed","value":3}`, Resolve(1, `0`), Resolve(2, `0`)),
		script("bridge/fifty parallel requests", `const ps = []; for (let i = 0; i < 50; i++) ps.push(__cm_bridge.request("n", String(i))); const vs = await Promise.all(ps); return vs.reduce((a, b) => a + b, 0)`,
			`{"status":"completed","value":1225}`, SettleAll()),
		script("bridge/twenty sequential requests", `let s = 0; for (let i = 0; i < 20; i++) s += await __cm_bridge.request("n", String(i)); return s`,
			`{"status":"completed","value":190}`, SettleAll()),
		script("bridge/request from a settlement callback", `return await __cm_bridge.request("a", "1").then(v => __cm_bridge.request("b", String(v + 1)))`,
			`{"status":"completed","value":2,"requests":["a 1","b 2"]}`, SettleAll()),
		script("bridge/replaced builtins do not break settle", `
JSON.parse = () => "hacked";
Promise = null;
Error = function () { return { fake: true } };
const v = await __cm_bridge.request("x", "1");
let m;
try { await __cm_bridge.request("y", "2") } catch (e) { m = [e.message, Object.getPrototypeOf(e) === Object.getPrototypeOf(new RangeError()).__proto__] }
return [v, m]`, `{"status":"completed","value":[{"ok":1},["no",true]]}`, Resolve(1, `{"ok":1}`), Reject(2, "no")),

		script("bridge/large resolved value", `const v = await __cm_bridge.request("big", "{}"); return [v.length, v[0], v[v.length - 1]]`,
			`{"status":"completed","value":[20000,"a","z"]}`, Resolve(1, `"a`+strings.Repeat("é", 19998)+`z"`)),
		{Name: "bridge/large request payload", Source: `__cm_bridge.request("big", "p".repeat(10000)); return 1`,
			Want: `{"status":"completed","value":1,"requests":["big ` + strings.Repeat("p", 10000) + `"]}`},
		script("bridge/rejection message with NUL", `try { await __cm_bridge.request("x", "{}") } catch (e) { return [e.message.length, e.message.charCodeAt(1)] }`,
			`{"status":"completed","value":[3,0]}`, Reject(1, "a\x00b")),
		script("bridge/rejection message with invalid UTF-8", `try { await __cm_bridge.request("x", "{}") } catch (e) { return [e.message.length, e.message.charCodeAt(1)] }`,
			`{"status":"completed","value":[3,65533]}`, Reject(1, "a\xffb")),
		{Name: "bridge/request payload with a lone surrogate", Source: `__cm_bridge.request("u", "a\ud800b"); return 1`,
			Want: `{"status":"completed","value":1,"requests":["u a\ufffdb"]}`},
		{Name: "output/lone surrogate in text", Source: `__cm_bridge.emit("text", "a\udc00b")`,
			Want: `{"status":"completed","value":null,"output":["text:a\ufffdb"]}`},
		{Name: "output/large payload", Source: `__cm_bridge.emit("text", "é".repeat(5000))`,
			Want: `{"status":"completed","value":null,"output":["text:` + strings.Repeat("é", 5000) + `"]}`},
		ok("bridge/returned thenable is adopted", `return { then(r) { r(5) } }`, `5`),
		ok("bridge/then that is not a function is data", `return { then: 1 }`, `{"then":1}`),

		// Host refusals are thrown synchronously as plain Errors.
		{Name: "bridge/refused request is catchable", Source: `try { __cm_bridge.request("refuse", "{}") } catch (e) { return [e instanceof Error, e.name, e.message] }`,
			Want: `{"status":"completed","value":[true,"Error","code mode request refused"]}`},
		{Name: "bridge/refused request uncaught", Source: `__cm_bridge.request("refuse", "{}")`,
			Want: `{"status":"failed","failure":{"kind":"guest-exception","name":"Error","message":"code mode request refused"}}`},

		// Output order and limits.
		script("output/order across awaits", `
__cm_bridge.emit("text", "a");
await __cm_bridge.request("x", "1");
__cm_bridge.emit("json", JSON.stringify({ b: 1 }));
__cm_bridge.emit("text", "c")`, `{"status":"completed","value":null,"output":["text:a","json:{\"b\":1}","text:c"]}`, Resolve(1, `0`)),
		{Name: "output/order with microtasks", Source: `Promise.resolve().then(() => __cm_bridge.emit("text", "2")); __cm_bridge.emit("text", "1"); await null; __cm_bridge.emit("text", "3")`,
			Want: `{"status":"completed","value":null,"output":["text:1","text:2","text:3"]}`},
		{Name: "output/kinds and payload strings", Source: `__cm_bridge.emit("json", "[1]"); __cm_bridge.emit("other", "x"); __cm_bridge.emit("text", 42); __cm_bridge.emit("text", { toString() { return "obj" } })`,
			Want: `{"status":"completed","value":null,"output":["json:[1]","text:x","text:42","text:obj"]}`},
		{Name: "output/unicode payload", Source: `__cm_bridge.emit("text", "é😀\n")`,
			Want: `{"status":"completed","value":null,"output":["text:é😀\n"]}`},
		{Name: "output/empty payload", Source: `__cm_bridge.emit("text", "")`,
			Want: `{"status":"completed","value":null,"output":["text:"]}`},
		{Name: "output/emitted before a failure is kept", Source: `__cm_bridge.emit("text", "before"); throw new Error("after")`,
			Want: `{"status":"failed","failure":{"kind":"guest-exception","name":"Error","message":"after","line":1},"output":["text:before"]}`},
		{Name: "output/limit is catchable", OutputLimit: 2, Source: `const r = []; for (let i = 0; i < 3; i++) { try { __cm_bridge.emit("text", "" + i); r.push("ok") } catch (e) { r.push(e.message) } } return r`,
			Want: `{"status":"completed","value":["ok","ok","code mode output limit exceeded"],"output":["text:0","text:1"]}`},
		{Name: "output/limit uncaught fails the cell", OutputLimit: 1, Source: `__cm_bridge.emit("text", "a"); __cm_bridge.emit("text", "b")`,
			Want: `{"status":"failed","failure":{"kind":"guest-exception","name":"Error","message":"code mode output limit exceeded"},"output":["text:a"]}`},
		{Name: "output/thousand items in order", Source: `for (let i = 0; i < 1000; i++) __cm_bridge.emit("text", String(i)); return 1`,
			OutputLimit: 3, Want: `{"status":"failed","failure":{"kind":"guest-exception","name":"Error","message":"code mode output limit exceeded"},"output":["text:0","text:1","text:2"]}`},

		// What the guest can and cannot reach.
		ok("bridge/host functions are removed", `return [typeof __cm_host_request, typeof __cm_host_emit, "__cm_host_request" in globalThis, Object.getOwnPropertyNames(globalThis).filter(n => n.startsWith("__cm_host"))]`,
			`["undefined","undefined",false,[]]`),
		ok("bridge/host functions not reachable by eval", `return [eval("typeof __cm_host_request"), new Function("return typeof __cm_host_emit")()]`, `["undefined","undefined"]`),
		ok("bridge/global has request, emit, encode and fill only", `return Object.keys(__cm_bridge).sort()`, `["emit","encode","fill","request"]`),
		ok("bridge/no host reach", `return [typeof require, typeof process, typeof module, typeof std, typeof os, typeof WebAssembly]`,
			`["undefined","undefined","undefined","undefined","undefined","undefined"]`),
		ok("bridge/replacing the bridge global is local", `__cm_bridge.request = () => 1; return __cm_bridge.request()`, `1`),
	}
}
