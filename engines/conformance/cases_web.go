package conformance

// webCases check the web platform APIs of abi/web.js (TextEncoder and
// TextDecoder, URL and URLSearchParams, structuredClone) and the natives it
// fills in where an engine lacks them (DOMException, atob/btoa,
// queueMicrotask, performance): every engine must give the same answers.
func webCases() []Case {
	return []Case{
		// The globals: replaceable, not enumerable, nothing Node-only.
		ok("web/globals exist and are replaceable", `
const names = ["TextEncoder", "TextDecoder", "URL", "URLSearchParams", "structuredClone", "atob", "btoa", "queueMicrotask", "DOMException"];
const out = names.map((n) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return typeof globalThis[n] + (d.enumerable ? "E" : "") + (d.writable ? "W" : "") + (d.configurable ? "C" : ""); });
globalThis.TextEncoder = 1;
return [out, TextEncoder, typeof performance.now(), [typeof process, typeof module, typeof window, typeof document, typeof self]]`,
			`[["functionWC","functionWC","functionWC","functionWC","functionWC","functionWC","functionWC","functionWC","functionWC"],1,"number",["undefined","undefined","undefined","undefined","undefined"]]`),

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

		// URL.
		ok("web/URL parses a URL a tool returned", `
const u = new URL("https://bot:s3cr%20t@API.Example.com:8443/v2/items/../orders?status=open&tag=a%20b#page-2");
return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.searchParams.get("tag")]`,
			`["https://bot:s3cr%20t@api.example.com:8443/v2/orders?status=open&tag=a%20b#page-2","https://api.example.com:8443","https:","bot","s3cr%20t","api.example.com:8443","api.example.com","8443","/v2/orders","?status=open&tag=a%20b","#page-2","a b"]`),
		ok("web/URL drops default ports and lowercases scheme and host", `
return ["HTTP://Example.COM:80/A", "https://x.io:443", "https://x.io:0443/", "ws://h:80/s", "wss://h:443", "ftp://files.example:21/f", "http://x.io:8080", "https://x.io:80/", "http://x.io:/p"].map((s) => new URL(s).href)`,
			`["http://example.com/A","https://x.io/","https://x.io/","ws://h/s","wss://h/","ftp://files.example/f","http://x.io:8080/","https://x.io:80/","http://x.io/p"]`),
		ok("web/URL normalises the path", `
return ["https://a.b/x/./y/../z", "https://a.b/x/%2e%2E/y", "https://a.b/..", "https://a.b/x/.", "http:\\\\a.b\\c\\d", "https://a.b/a b/<c>/\"d\"/{e}/%41", "https://a.b/naïve/日本", "https://a.b/p?q=1 2&r=\"x\"&s='y'#f g", "foo://h/p?s='y'"].map((s) => new URL(s).href)`,
			`["https://a.b/x/z","https://a.b/y","https://a.b/","https://a.b/x/","http://a.b/c/d","https://a.b/a%20b/%3Cc%3E/%22d%22/%7Be%7D/%41","https://a.b/na%C3%AFve/%E6%97%A5%E6%9C%AC","https://a.b/p?q=1%202&r=%22x%22&s=%27y%27#f%20g","foo://h/p?s='y'"]`),
		ok("web/URL resolves relative references", `
const base = "https://api.example.com/v2/users/42?fields=name#top";
return [["../x?y", "https://a.b/c/d"], ["//cdn.example.com/lib.js", base], ["?page=2", base], ["#bottom", base], ["/health", base], ["", base], ["orders", base],
  ["./orders/../items", base], ["../../../../x", base], ["invoices?page=3", "https://api.example.com/v2/"], ["https:next", base], ["http:other", base], ["/p", "foo://h/a"], ["q", "foo://h/a/b"], ["#x", "mailto:a@b.c"]].map(([u, b]) => new URL(u, b).href)`,
			`["https://a.b/x?y","https://cdn.example.com/lib.js","https://api.example.com/v2/users/42?page=2","https://api.example.com/v2/users/42?fields=name#bottom","https://api.example.com/health","https://api.example.com/v2/users/42?fields=name","https://api.example.com/v2/users/orders","https://api.example.com/v2/users/items","https://api.example.com/x","https://api.example.com/v2/invoices?page=3","https://api.example.com/v2/users/next","http://other/","foo://h/p","foo://h/a/q","mailto:a@b.c#x"]`),
		ok("web/URL opaque schemes", `
return ["mailto:Ops@Example.com?subject=Hi there", "data:text/plain,hi there", "urn:isbn:123", "javascript:void(0)"].map((s) => { const u = new URL(s); return [u.href, u.protocol, u.origin, u.host, u.pathname, u.search] })`,
			`[["mailto:Ops@Example.com?subject=Hi%20there","mailto:","null","","Ops@Example.com","?subject=Hi%20there"],["data:text/plain,hi there","data:","null","","text/plain,hi there",""],["urn:isbn:123","urn:","null","","isbn:123",""],["javascript:void(0)","javascript:","null","","void(0)",""]]`),
		ok("web/URL non-special schemes keep the host's case", `
return ["foo://EXAMPLE.com/a b?c d#e f", "git+ssh://git@Host.example:2222/repo.git", "foo://host", "foo:/x/../y", "foo:///x", "redis://:pw@cache:6379/0"].map((s) => { const u = new URL(s); return [u.href, u.host, u.pathname, u.origin] })`,
			`[["foo://EXAMPLE.com/a%20b?c%20d#e%20f","EXAMPLE.com","/a%20b","null"],["git+ssh://git@Host.example:2222/repo.git","Host.example:2222","/repo.git","null"],["foo://host","host","","null"],["foo:/y","","/y","null"],["foo:///x","","/x","null"],["redis://:pw@cache:6379/0","cache:6379","/0","null"]]`),
		ok("web/URL file URLs", `
return ["file:///etc/hosts", "file://localhost/tmp/x", "file://server/share/f.txt", "file:/a/b", "file:c", "file:///home/me/../you"].map((s) => { const u = new URL(s); return [u.href, u.host, u.pathname, u.origin] })`,
			`[["file:///etc/hosts","","/etc/hosts","null"],["file:///tmp/x","","/tmp/x","null"],["file://server/share/f.txt","server","/share/f.txt","null"],["file:///a/b","","/a/b","null"],["file:///c","","/c","null"],["file:///home/you","","/home/you","null"]]`),
		ok("web/URL hosts: IDNA, IPv4 and IPv6", `
return ["https://münchen.de/", "https://BÜCHER.example", "http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://0300.0250.0.1/", "http://1.2.3.4./", "http://[::1]:8080/x", "http://[2001:DB8::1]/", "http://ex%41mple.com/"].map((s) => new URL(s).host)`,
			`["xn--mnchen-3ya.de","xn--bcher-kva.example","127.0.0.1","127.0.0.1","127.0.0.1","192.168.0.1","1.2.3.4","[::1]:8080","[2001:db8::1]","example.com"]`),
		ok("web/URL refuses bad input with TypeError Invalid URL", `
const out = [];
for (const [u, b] of [["no scheme"], ["/relative"], ["https://"], ["http://exa mple.com/"], ["http://x:65536/"], ["http://x:8a/"], ["http://[::1/"], ["http://256.0.0.1/"], ["http://1.2.3.4.5/"], ["http://a%2fb/"], ["x", "mailto:a@b"], ["x", "not a base"], ["http://u@/"], ["foo://:1/"]]) {
  try { new URL(u, b); out.push("parsed") } catch (e) { out.push(e.name + ": " + e.message) }
}
return out`,
			`["TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL","TypeError: Invalid URL"]`),
		ok("web/URL setters", `
const u = new URL("https://api.example.com/v1/items?x=1#old");
u.pathname = "/v2/orders list";
u.search = "?status=open&q=a b";
u.hash = "results";
u.port = "8443";
const a = u.href;
u.port = "443";
u.hostname = "EU.Example.com";
const b = u.href;
u.host = "backup.example.com:9000";
u.protocol = "http";
u.username = "bot";
u.password = "p@ss";
const c = u.href;
u.port = "";
u.search = "";
u.hash = "";
const d = u.href;
u.port = "99999"; u.port = "abc"; u.protocol = "mailto"; u.hostname = ""; u.host = "x:1:2";
const e = u.href;
u.href = "wss://stream.example.com/feed?since=10";
let bad = "";
try { u.href = "nope" } catch (err) { bad = err.name }
const m = new URL("mailto:a@b.c");
m.pathname = "x"; m.host = "h";
return [a, b, c, d, e, u.href, u.searchParams.get("since"), bad, m.href]`,
			`["https://api.example.com:8443/v2/orders%20list?status=open&q=a%20b#results","https://eu.example.com/v2/orders%20list?status=open&q=a%20b#results","http://bot:p%40ss@backup.example.com:9000/v2/orders%20list?status=open&q=a%20b#results","http://bot:p%40ss@backup.example.com/v2/orders%20list","http://bot:p%40ss@x:1/v2/orders%20list","wss://stream.example.com/feed?since=10","10","TypeError","mailto:a@b.c"]`),
		fails("web/an invalid URL fails the cell with TypeError", `const endpoint = "api.example.com/v1";
const u = new URL(endpoint);
return u.href`, `{"kind":"guest-exception","name":"TypeError","message":"Invalid URL","line":2}`),
		ok("web/URL.canParse and URL.parse", `
return [URL.canParse("https://a.b"), URL.canParse("a.b"), URL.canParse("/x", "https://a.b"), URL.parse("nope"), URL.parse("/x?y", "https://a.b").href, URL.parse("http://x:99999") === null]`,
			`[true,false,true,null,"https://a.b/x?y",true]`),
		ok("web/URL searchParams stays in sync both ways", `
const u = new URL("https://shop.example/search?q=red+shoes&size=9&size=10");
const p = u.searchParams;
const seen = [p.get("q"), p.getAll("size")];
p.append("sort", "price asc");
p.set("size", "11");
const a = u.search;
u.search = "?page=2&q=blue";
const b = [p.get("page"), p.get("q"), p.has("size"), p.size];
p.delete("q");
const c = u.href;
p.delete("page");
const d = u.href;
u.href = "https://shop.example/?x=1";
return [seen, a, b, c, d, [...p], p === u.searchParams]`,
			`[["red shoes",["9","10"]],"?q=red+shoes&size=11&sort=price+asc",["2","blue",false,2],"https://shop.example/search?page=2","https://shop.example/search",[["x","1"]],true]`),
		ok("web/URL is a string where one is expected", `
const u = new URL("https://a.b/c?d=1");
return [String(u), u + "", JSON.stringify({ link: u }), u.toJSON(), new URL(u).href, new URL("x", u).href, Object.prototype.toString.call(u), typeof u]`,
			`["https://a.b/c?d=1","https://a.b/c?d=1","{\"link\":\"https://a.b/c?d=1\"}","https://a.b/c?d=1","https://a.b/c?d=1","https://a.b/x","[object URL]","object"]`),
		ok("web/URL as the cell's value is its href", `return new URL("HTTPS://Example.com/a/../b?c#d")`,
			`"https://example.com/b?c#d"`),

		// URLSearchParams.
		ok("web/URLSearchParams builds a query string for an API", `
const params = new URLSearchParams({ q: "build bot", limit: 5, since: "2024-01-01T00:00:00Z" });
params.append("tag", "ci/cd");
params.append("tag", "a&b=c");
params.append("emoji", "✓ 😀");
params.append("safe", "a*b-c._~!'()");
return ["https://api.example.com/search?" + params, params.size]`,
			`["https://api.example.com/search?q=build+bot&limit=5&since=2024-01-01T00%3A00%3A00Z&tag=ci%2Fcd&tag=a%26b%3Dc&emoji=%E2%9C%93+%F0%9F%98%80&safe=a*b-c._%7E%21%27%28%29",7]`),
		ok("web/URLSearchParams parses a query string", `
const p = new URLSearchParams("?q=a+b%20c&x=%zz&e=&flag&x=2&&=v&k==&bad=%E2%82&ü=%C3%BC");
return [[...p], p.get("q"), p.get("x"), p.getAll("x"), p.get("missing"), p.has("flag"), p.has("x", "2"), p.has("x", "3"), p.size, p.toString()]`,
			`[[["q","a b c"],["x","%zz"],["e",""],["flag",""],["x","2"],["","v"],["k","="],["bad","�"],["ü","ü"]],"a b c","%zz",["%zz","2"],null,true,true,false,9,"q=a+b+c&x=%25zz&e=&flag=&x=2&=v&k=%3D&bad=%EF%BF%BD&%C3%BC=%C3%BC"]`),
		ok("web/URLSearchParams from objects, pairs and other params", `
const fromPairs = new URLSearchParams([["a", "1"], ["b", 2], ["a", "3"]]);
const fromMap = new URLSearchParams(new Map([["m", "x y"]]));
const copy = new URLSearchParams(fromPairs);
copy.append("c", "4");
const obj = Object.create({ inherited: 1 }, { own: { value: "v", enumerable: true }, hidden: { value: "h", enumerable: false } });
const out = [fromPairs.toString(), fromMap.toString(), copy.toString(), fromPairs.toString(), new URLSearchParams(obj).toString(), new URLSearchParams().toString(), new URLSearchParams("").size];
for (const bad of [[["a"]], [["a", "b", "c"]], [1]]) { try { new URLSearchParams(bad); out.push("accepted") } catch (e) { out.push(e.name) } }
return out`,
			`["a=1&b=2&a=3","m=x+y","a=1&b=2&a=3&c=4","a=1&b=2&a=3","own=v","",0,"TypeError","TypeError","TypeError"]`),
		ok("web/URLSearchParams get, set, delete and has", `
const p = new URLSearchParams("a=1&b=2&a=3&c=4&a=5");
p.set("a", "new");
const afterSet = p.toString();
p.append("b", "9");
p.delete("b", "2");
const afterDeleteValue = p.toString();
p.delete("c");
return [afterSet, afterDeleteValue, p.toString(), p.has("c"), p.has("b", "9"), p.get("b"), p.getAll("a")]`,
			`["a=new&b=2&c=4","a=new&c=4&b=9","a=new&b=9",false,true,"9",["new"]]`),
		ok("web/URLSearchParams sort is stable by code units", `
const p = new URLSearchParams("b=2&a=1&b=1&a=0&c=3&A=9&é=1&z=0&\uD83D\uDE00=e&\uFFFD=f");
p.sort();
return [...p.keys()].join(",") + " " + [...p.values()].join(",")`,
			`"A,a,a,b,b,c,z,é,😀,� 9,1,0,2,1,3,0,1,e,f"`),
		ok("web/URLSearchParams iterates", `
const p = new URLSearchParams("x=1&y=2&x=3");
const seen = [];
p.forEach(function (value, key, all) { seen.push(key + "=" + value, all === p, this.tag) }, { tag: "t" });
const it = p.keys();
it.next();
p.append("z", "4");
return [seen, [...p], [...p.entries()], [...p.keys()], [...p.values()], [...it], Array.from(p).length, Object.fromEntries(p), Object.prototype.toString.call(p)]`,
			`[["x=1",true,"t","y=2",true,"t","x=3",true,"t"],[["x","1"],["y","2"],["x","3"],["z","4"]],[["x","1"],["y","2"],["x","3"],["z","4"]],["x","y","x","z"],["1","2","3","4"],["y","x","z"],4,{"x":"3","y":"2","z":"4"},"[object URLSearchParams]"]`),

		// structuredClone.
		ok("web/structuredClone copies a result before mutating it", `
const result = { items: [{ id: 1, tags: ["a"] }, { id: 2, tags: [] }], meta: { total: 2, fetched: new Date(0) } };
const draft = structuredClone(result);
draft.items[0].tags.push("b");
draft.meta.total = 3;
return [result.items[0].tags, result.meta.total, draft.items[0].tags, draft.meta.total, draft.meta.fetched instanceof Date, draft.meta.fetched.toISOString()]`,
			`[["a"],2,["a","b"],3,true,"1970-01-01T00:00:00.000Z"]`),
		ok("web/structuredClone keeps types", `
const src = { d: new Date(1700000000000), r: /ab+c/gi, m: new Map([["k", [1]], [2, "two"]]), s: new Set([1, "x"]), big: 10n, neg: -0, nan: NaN, u: undefined, nul: null,
  boxed: [new Number(3), new String("s"), new Boolean(false), Object(5n)], sparse: [1, , 3] };
const c = structuredClone(src);
return [c.d instanceof Date, c.d.getTime(), c.r instanceof RegExp, c.r.source, c.r.flags, c.m instanceof Map, [...c.m], c.s instanceof Set, [...c.s], typeof c.big, c.big === 10n,
  Object.is(c.neg, -0), Number.isNaN(c.nan), "u" in c, c.nul, c.boxed.map((b) => typeof b + ":" + b.valueOf()).slice(0, 3), typeof c.boxed[3], c.boxed[3].valueOf() === 5n, c.sparse.length, 1 in c.sparse]`,
			`[true,1700000000000,true,"ab+c","gi",true,[["k",[1]],[2,"two"]],true,[1,"x"],"bigint",true,true,true,true,null,["object:3","object:s","object:false"],"object",true,3,false]`),
		ok("web/structuredClone keeps shared references and cycles", `
const shared = { id: "s" };
const graph = { a: shared, b: [shared, shared], m: new Map([[shared, shared]]) };
graph.self = graph;
graph.b.push(graph.b);
const c = structuredClone(graph);
const k = [...c.m.keys()][0];
const m = new Map(); m.set(m, m);
const cm = structuredClone(m);
return [c !== graph, c.self === c, c.a === c.b[0], c.b[0] === c.b[1], c.b[2] === c.b, k === c.a, c.m.get(k) === c.a, c.a !== shared, cm.get(cm) === cm]`,
			`[true,true,true,true,true,true,true,true,true]`),
		ok("web/structuredClone copies binary data", `
const buf = new ArrayBuffer(8);
const bytes = new Uint8Array(buf);
bytes.set([1, 2, 3, 4]);
const floats = new Float32Array(buf, 4, 1);
floats[0] = 1.5;
const c = structuredClone({ buf, bytes, floats, view: new DataView(buf, 2, 4), words: new Uint16Array(buf, 0, 2) });
bytes[0] = 99;
return [c.buf !== buf, c.bytes.buffer === c.buf, c.floats.buffer === c.buf, c.view.buffer === c.buf, Array.from(c.bytes), c.floats[0], c.floats.byteOffset, c.view.byteOffset, c.view.byteLength, Array.from(c.words), Object.prototype.toString.call(c.view), structuredClone(new Uint8Array([7])).buffer.byteLength]`,
			`[true,true,true,true,[1,2,3,4,0,0,192,63],1.5,4,2,4,[513,1027],"[object DataView]",1]`),
		ok("web/structuredClone turns class instances into plain objects", `
class Point { constructor() { this.x = 1; this.y = [2]; } get len() { return 3; } norm() { return 1; } }
const p = structuredClone(new Point());
const o = { [Symbol("k")]: 1, a: 1, get g() { return [this.a] } };
Object.defineProperty(o, "hidden", { value: 2, enumerable: false });
const j = structuredClone(JSON.parse('{"__proto__": {"x": 1}, "y": 2}'));
return [Object.getPrototypeOf(p) === Object.prototype, p, p instanceof Point, "norm" in p, Object.getOwnPropertyNames(structuredClone(o)), structuredClone(o).g, Object.keys(j), Object.getPrototypeOf(j) === Object.prototype, j.x, structuredClone(Object.create(null, { a: { value: 1, enumerable: true } }))]`,
			`[true,{"x":1,"y":[2]},false,false,["a","g"],[1],["__proto__","y"],true,null,{"a":1}]`),
		ok("web/structuredClone clones errors", `
const e = new RangeError("bad range", { cause: { code: 7 } });
e.extra = 1;
const c = structuredClone(e);
class ToolError extends Error { constructor(m) { super(m); this.name = "ToolError" } }
const t = structuredClone(new ToolError("tool failed"));
const renamed = new TypeError("t"); renamed.name = "SyntaxError";
const d = structuredClone(new DOMException("no", "NotFoundError"));
return [c instanceof RangeError, c.name, c.message, typeof c.stack, c.cause, c.cause !== e.cause, c.extra, Object.keys(c), t.constructor === Error, t.name, t.message,
  structuredClone(renamed) instanceof SyntaxError, d instanceof DOMException, d.name, d.message, d.code]`,
			`[true,"RangeError","bad range","string",{"code":7},true,null,[],true,"Error","tool failed",true,true,"NotFoundError","no",8]`),
		ok("web/structuredClone refuses functions and symbols with DataCloneError", `
const out = [];
for (const v of [() => 1, { run() {} }, Symbol("s"), { s: Symbol("s") }, new WeakMap(), Promise.resolve(), new URL("https://a.b"), [1, Math.max]]) {
  try { structuredClone(v); out.push("cloned") } catch (e) { out.push(e instanceof DOMException && e.name === "DataCloneError" && e.code === 25) }
}
let none = "";
try { structuredClone() } catch (e) { none = e.name }
return [out, none, [structuredClone(1), structuredClone("s"), structuredClone(null), structuredClone(undefined), structuredClone(true)]]`,
			`[[true,true,true,true,true,true,true,true],"TypeError",[1,"s",null,null,true]]`),
		fails("web/structuredClone of a function fails the cell with DataCloneError", `const state = { count: 1, bump() { this.count++ } };
const copy = structuredClone(state);
return copy`, `{"kind":"guest-exception","name":"DataCloneError","message":"function bump could not be cloned.","line":2}`),
		ok("web/structuredClone ignores transfer", `
const buf = new Uint8Array([1, 2]).buffer;
const c = structuredClone({ buf }, { transfer: [buf] });
return [buf.byteLength, c.buf.byteLength, c.buf !== buf]`,
			`[2,2,true]`),

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
