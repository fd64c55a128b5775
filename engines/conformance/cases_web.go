package conformance

// webCases check the web platform APIs of abi/web.js (TextEncoder and
// TextDecoder, URL and URLSearchParams, structuredClone) and the natives it
// fills in where an engine lacks them (DOMException, atob/btoa,
// queueMicrotask, performance): every engine must give the same answers.
func webCases() []Case {
	return []Case{
		// The globals: replaceable, not enumerable, nothing Node-only.
		ok("web/globals exist and are replaceable", `
const names = ["TextEncoder", "TextDecoder", "atob", "btoa", "queueMicrotask", "DOMException"];
const out = names.map((n) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return typeof globalThis[n] + (d.enumerable ? "E" : "") + (d.writable ? "W" : "") + (d.configurable ? "C" : ""); });
globalThis.TextEncoder = 1;
return [out, TextEncoder, typeof performance.now(), [typeof process, typeof module, typeof window, typeof document, typeof self]]`,
			`[["functionWC","functionWC","functionWC","functionWC","functionWC","functionWC"],1,"number",["undefined","undefined","undefined","undefined","undefined"]]`),

		// TextEncoder and TextDecoder.
		ok("web/TextEncoder encodes UTF-8", `
const hex = (u) => Array.from(u, (b) => b.toString(16).padStart(2, "0")).join(" ");
const e = new TextEncoder();
const b = e.encode("aé€😀");
return [e.encoding, b instanceof Uint8Array, b.length, hex(b), e.encode().length, hex(e.encode(12))]`,
			`["utf-8",true,10,"61 c3 a9 e2 82 ac f0 9f 98 80",0,"31 32"]`),
		ok("web/TextEncoder turns lone surrogates into U+FFFD", `
const hex = (u) => Array.from(u, (b) => b.toString(16).padStart(2, "0")).join(" ");
return hex(new TextEncoder().encode("a\ud800b\udc00\ud83d"))`, `"61 ef bf bd 62 ef bf bd ef bf bd"`),
		ok("web/TextEncoder.encodeInto writes whole characters", `
const e = new TextEncoder();
const small = new Uint8Array(5);
const big = new Uint8Array(16);
const r = e.encodeInto("aé😀", small);
let refused = "";
try { e.encodeInto("x", new Uint16Array(2)) } catch (err) { refused = err.name }
return [r, Array.from(small), e.encodeInto("aé😀", big), e.encodeInto("😀", big.subarray(0, 3)), refused]`,
			`[{"read":2,"written":3},[97,195,169,0,0],{"read":4,"written":7},{"read":0,"written":0},"TypeError"]`),
		ok("web/text to bytes and back", `
const label = "Grüße, 世界 — ok ✓ 🚀";
const bytes = new TextEncoder().encode(label);
const back = new TextDecoder().decode(bytes);
return [bytes.length, back === label, new TextDecoder().decode(bytes.buffer) === label]`, `[31,true,true]`),
		ok("web/TextDecoder takes any buffer source", `
const buf = new TextEncoder().encode("hello world").buffer;
const d = new TextDecoder();
return [d.decode(buf), d.decode(new DataView(buf, 6, 5)), d.decode(new Uint16Array(buf, 0, 2)), d.decode(new Uint8Array(buf, 4, 3)), d.decode(), d.decode(new Uint8Array(0))]`,
			`["hello world","world","hell","o w","",""]`),
		ok("web/TextDecoder refuses what is not a buffer", `
const out = [];
for (const v of ["abc", [104, 105], {}, null, 5]) { try { new TextDecoder().decode(v); out.push("accepted") } catch (e) { out.push(e.name) } }
return out`, `["TypeError","TypeError","TypeError","TypeError","TypeError"]`),
		ok("web/TextDecoder replaces each maximal subpart of invalid UTF-8", `
const cps = (s) => Array.from(s, (c) => c.codePointAt(0).toString(16)).join(" ");
const d = (...b) => cps(new TextDecoder().decode(new Uint8Array(b)));
return [
  d(0x61, 0x80, 0x62),
  d(0xc3, 0x41),
  d(0xe2, 0x82, 0x41),
  d(0xf0, 0x9f, 0x98, 0x41),
  d(0xed, 0xa0, 0x80),
  d(0xc0, 0xaf),
  d(0xf4, 0x90, 0x80, 0x80),
  d(0xff, 0xfe),
  d(0x61, 0xe2, 0x82),
  d(0xef, 0xbf, 0xbf, 0xf4, 0x8f, 0xbf, 0xbf),
]`, `["61 fffd 62","fffd 41","fffd 41","fffd 41","fffd fffd fffd","fffd fffd","fffd fffd fffd fffd","fffd fffd","61 fffd","ffff 10ffff"]`),
		ok("web/TextDecoder fatal throws a TypeError", `
const d = new TextDecoder("utf-8", { fatal: true });
const out = [d.fatal, d.ignoreBOM];
for (const b of [[0xff], [0x61, 0xc3], [0xed, 0xa0, 0x80]]) { try { d.decode(new Uint8Array(b)); out.push("accepted") } catch (e) { out.push(e.name) } }
out.push(d.decode(new Uint8Array([0xc3, 0xa9])));
return out`, `[true,false,"TypeError","TypeError","TypeError","é"]`),
		ok("web/TextDecoder drops a BOM unless ignoreBOM", `
const b = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
const keep = new TextDecoder("utf-8", { ignoreBOM: true });
const d = new TextDecoder();
return [d.decode(b), d.decode(b), keep.decode(b).length, keep.ignoreBOM, d.decode(new Uint8Array([0x68, 0xef, 0xbb, 0xbf])).length]`,
			`["hi","hi",3,true,2]`),
		ok("web/TextDecoder streams split characters", `
const d = new TextDecoder();
const chunks = [[0xef], [0xbb, 0xbf, 0x61, 0xe2], [0x82], [0xac, 0xf0, 0x9f], [0x98, 0x80]];
const parts = chunks.map((c) => d.decode(new Uint8Array(c), { stream: true }));
parts.push(d.decode());
const cut = new TextDecoder();
return [parts, parts.join("") === "a€😀", cut.decode(new Uint8Array([0xe2, 0x82]), { stream: true }), cut.decode().codePointAt(0), cut.decode(new Uint8Array([0x41]))]`,
			`[["","a","","€","😀",""],true,"",65533,"A"]`),
		ok("web/TextDecoder labels", `
const out = ["utf-8", " UTF8 ", "unicode-1-1-utf-8", "\tUtf-8\n"].map((l) => new TextDecoder(l).encoding);
for (const l of ["latin1", "utf-16le", "ascii", ""]) { try { new TextDecoder(l); out.push("accepted") } catch (e) { out.push(e.name) } }
return [out, new TextDecoder().encoding, Object.prototype.toString.call(new TextDecoder()), Object.prototype.toString.call(new TextEncoder())]`,
			`[["utf-8","utf-8","utf-8","utf-8","RangeError","RangeError","RangeError","RangeError"],"utf-8","[object TextDecoder]","[object TextEncoder]"]`),
		ok("web/TextDecoder decodes a large input", `
const s = "line " + "héllo wörld 😀 ".repeat(20000);
const b = new TextEncoder().encode(s);
const back = new TextDecoder().decode(b);
return [b.length, back.length === s.length, back === s]`, `[380005,true,true]`),
		ok("web/TextEncoder and TextDecoder survive replaced built-ins", `
String.prototype.charCodeAt = () => 0;
String.fromCharCode = () => "x";
Array.prototype.join = () => "y";
const b = new TextEncoder().encode("hé");
return [Array.from(b), new TextDecoder().decode(b)]`, `[[104,195,169],"hé"]`),

		// atob and btoa: QuickJS's own, and ours where an engine lacks them.
		ok("web/atob and btoa round trip a JWT payload", `
const b64url = (s) => btoa(s).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const unurl = (s) => atob(s.replace(/-/g, "+").replace(/_/g, "/"));
const token = b64url(JSON.stringify({ alg: "HS256" })) + "." + b64url(JSON.stringify({ sub: "u-17", admin: true }));
return [token, JSON.parse(unurl(token.split(".")[1]))]`,
			`["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTE3IiwiYWRtaW4iOnRydWV9",{"sub":"u-17","admin":true}]`),
		ok("web/atob is forgiving", `
return [atob(" aGk= "), atob("aGk"), atob("YQ"), atob("YR=="), atob("a G\tk\n"), atob(""), Array.from(atob(null), (c) => c.charCodeAt(0)), Array.from(atob("/+8="), (c) => c.charCodeAt(0)), btoa("\u00ff\u00fe"), btoa(""), btoa("ab"), btoa(null)]`,
			`["hi","hi","a","a","hi","",[158,233,101],[255,239],"//4=","","YWI=","bnVsbA=="]`),
		ok("web/atob and btoa refuse bad input with InvalidCharacterError", `
const out = [];
for (const f of [() => atob("a"), () => atob("aGk=="), () => atob("aG=k"), () => atob("a-b_"), () => atob("YQ="), () => atob("ab\u00a0"), () => atob("===="), () => btoa("\u0100"), () => btoa("€")]) {
  try { f(); out.push("accepted") } catch (e) { out.push(e instanceof DOMException && e.name === "InvalidCharacterError" && e.code === 5) }
}
return out`, `[true,true,true,true,true,true,true,true,true]`),

		// DOMException.
		ok("web/DOMException", `
const d = new DOMException("no clone", "DataCloneError");
let called = "";
try { DOMException("x") } catch (e) { called = e.name }
return [d.name, d.message, d.code, d instanceof Error, String(d), Object.prototype.toString.call(d), JSON.stringify(d), Object.keys(d),
  DOMException.DATA_CLONE_ERR, DOMException.prototype.INVALID_CHARACTER_ERR, new DOMException().name, new DOMException("x", "NotFoundError").code,
  new DOMException("x", "Custom").code, typeof d.stack, called]`,
			`["DataCloneError","no clone",25,true,"DataCloneError: no clone","[object DOMException]","{}",[],25,5,"Error",8,0,"string","TypeError"]`),

		// queueMicrotask and performance.
		ok("web/queueMicrotask runs in order with promise jobs", `
const order = [];
queueMicrotask(() => order.push("m1"));
Promise.resolve().then(() => order.push("p1"));
queueMicrotask((...args) => order.push("m2:" + args.length));
order.push("sync");
await null; await null;
let refused = "";
try { queueMicrotask("x") } catch (e) { refused = e.name }
return [order, refused]`, `[["sync","m1","p1","m2:0"],"TypeError"]`),
		ok("web/performance.now measures elapsed time", `
const t0 = performance.now();
let x = 0;
for (let i = 0; i < 1000; i++) x += i;
const dt = performance.now() - t0;
return [typeof t0, dt >= 0 && dt < 10000, x]`, `["number",true,499500]`),
	}
}
