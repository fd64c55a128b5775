package conformance

import "github.com/seed11a79d2d/codemode/abi"

// snapshotCases run, snapshot, restore into a new cell, settle and compare.
func snapshotCases() []Case {
	snap := func(name, src, want string, actions ...Action) Case {
		return Case{Name: name, Source: src, Needs: needSnapshot, Script: actions, Want: want}
	}
	return []Case{
		snap("snapshot/settle after restore", `const x = await __cm_bridge.request("a", "1"); return x + 1`,
			`{"status":"completed","value":42}`, Snapshot(), Resolve(1, `41`)),
		snap("snapshot/state survives", `let n = 5; globalThis.g = "kept"; const m = new Map([["k", [1]]]); class P { #v = 3; v() { return this.#v } } const p = new P(); const v = await __cm_bridge.request("a", "1"); return [n, g, m.get("k"), p.v(), v]`,
			`{"status":"completed","value":[5,"kept",[1],3,7]}`, Snapshot(), Resolve(1, `7`)),
		snap("snapshot/twice", `const a = await __cm_bridge.request("a", "1"); const b = await __cm_bridge.request("b", "2"); return a + b`,
			`{"status":"completed","value":3,"requests":["a 1","b 2"]}`, Snapshot(), Resolve(1, `1`), Snapshot(), Resolve(2, `2`)),
		snap("snapshot/settle order after restore", `const [x, y] = await Promise.all([__cm_bridge.request("a", "1"), __cm_bridge.request("b", "2")]); return [x, y]`,
			`{"status":"completed","value":["x","y"]}`, Snapshot(), Resolve(2, `"y"`), Snapshot(), Resolve(1, `"x"`)),
		snap("snapshot/output continues", `__cm_bridge.emit("text", "before"); await __cm_bridge.request("a", "1"); __cm_bridge.emit("text", "after")`,
			`{"status":"completed","value":null,"output":["text:before","text:after"]}`, Snapshot(), Resolve(1, `0`)),
		snap("snapshot/rejection after restore", `try { await __cm_bridge.request("a", "1") } catch (e) { return [e instanceof Error, e.message] }`,
			`{"status":"completed","value":[true,"later"]}`, Snapshot(), Reject(1, "later")),
		snap("snapshot/unknown ticket after restore", `return await __cm_bridge.request("a", "1")`,
			`{"status":"completed","value":1}`, Snapshot(), Resolve(7, `0`), Resolve(1, `1`)),
		snap("snapshot/microtask order after restore", `
const log = [];
const p = __cm_bridge.request("a", "1").then(() => log.push("a"));
Promise.resolve().then(() => log.push("micro"));
await p;
log.push("end");
return log`, `{"status":"completed","value":["micro","a","end"]}`, Snapshot(), Resolve(1, `0`)),
		snap("snapshot/generator suspended", `function* g() { yield 1; yield 2 } const it = g(); it.next(); await __cm_bridge.request("a", "1"); return it.next().value`,
			`{"status":"completed","value":2}`, Snapshot(), Resolve(1, `0`)),
		snap("snapshot/math random works after restore", `await __cm_bridge.request("a", "1"); const r = Math.random(); return r >= 0 && r < 1`,
			`{"status":"completed","value":true}`, Snapshot(), Resolve(1, `0`)),
		snap("snapshot/host functions stay removed", `await __cm_bridge.request("a", "1"); return [typeof __cm_host_request, typeof __cm_host_emit]`,
			`{"status":"completed","value":["undefined","undefined"]}`, Snapshot(), Resolve(1, `0`)),
		snap("snapshot/new requests after restore", `await __cm_bridge.request("a", "1"); return await __cm_bridge.request("b", "2")`,
			`{"status":"completed","value":"b","requests":["a 1","b 2"]}`, Snapshot(), Resolve(1, `0`), Snapshot(), Resolve(2, `"b"`)),
		{Name: "snapshot/interrupt after restore", Needs: needSnapshotInterrupt, Source: `await __cm_bridge.request("a", "1"); for (;;) {}`,
			Script: []Action{Snapshot(), InterruptNow(abi.InterruptAbort), Resolve(1, `0`)}, Want: `{"status":"failed","failure":{"kind":"aborted","message":"interrupted: aborted"}}`},
	}
}
