package conformance

// nodeCases check the Node and fetch globals of abi/buffer.js, abi/blob.js
// and abi/events.js (Buffer, Blob, File, Headers, Event, EventTarget,
// AbortController, AbortSignal). Every wanted value is what Node 20 gives
// for the same cell; the scripted host settles timers in the order asked.
func nodeCases() []Case {
	return []Case{
		ok("node/Buffer encodes and decodes text", `
const b = Buffer.from("aGVsbG8gd29ybGQ=", "base64");
return [b.toString(), b.toString("hex"), Buffer.from("hello").toString("base64"), Buffer.from("hi?>").toString("base64url"),
  Buffer.from("héllo €").toString("utf16le").length, Buffer.from("ff00", "hex").toString("latin1").length, Buffer.from("héllo", "latin1").toString("latin1"),
  Buffer.from("aGk_Pg", "base64url").toString(), Buffer.from(" aG k= \n", "base64").toString(), Buffer.from("0g12", "hex").length, Buffer.from("abc", "ascii").toString("ascii")]`,
			`["hello world","68656c6c6f20776f726c64","aGVsbG8=","aGk_Pg",5,2,"héllo","hi?>","hi",0,"abc"]`),
		ok("node/Buffer is a Uint8Array with Node's statics", `
const b = Buffer.from([104, 105]);
let unknown = "";
try { Buffer.from("x", "utf7") } catch (e) { unknown = e.name + ": " + e.message }
return [b instanceof Uint8Array, Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(2)), Buffer.isEncoding("UTF-8"), Buffer.isEncoding("nope"),
  Buffer.byteLength("héllo"), Buffer.byteLength("aGk=", "base64"), Buffer.concat([Buffer.from("a"), new Uint8Array([98, 99])]).toString(),
  Buffer.concat([Buffer.from("abcd")], 2).toString(), Buffer.alloc(5, "ab").toString(), Buffer.alloc(3).toString("hex"), Buffer.compare(Buffer.from("a"), Buffer.from("b")),
  Buffer.from({ type: "Buffer", data: [111, 107] }).toString(), JSON.stringify(Buffer.from("hi")), unknown]`,
			`[true,true,false,true,false,6,2,"abc","ab","ababa","000000",-1,"ok","{\"type\":\"Buffer\",\"data\":[104,105]}","TypeError: Unknown encoding: utf7"]`),
		ok("node/Buffer slices share memory and search", `
const b = Buffer.from("hello world");
const s = b.slice(0, 5);
s[0] = 72;
const c = Buffer.alloc(5);
return [b.toString(), s.toString(), b.subarray(-5).toString(), b.indexOf("o"), b.lastIndexOf("o"), b.indexOf(Buffer.from("wor")), b.indexOf(111, 5), b.includes("xyz"),
  b.equals(Buffer.from("Hello world")), b.copy(c, 0, 6), c.toString(), b.write("J", 0), b.toString("utf8", 0, 5), b.map((x) => x + 1) instanceof Buffer]`,
			`["Hello world","Hello","world",4,7,6,7,false,true,5,"world",1,"Jello",true]`),
		ok("node/Buffer reads and writes fixed-width numbers", `
const b = Buffer.alloc(16);
const ends = [b.writeUInt32BE(0xdeadbeef, 0), b.writeInt16LE(-2, 4), b.writeDoubleLE(1.5, 8)];
let range = "";
try { b.readUInt32LE(14) } catch (e) { range = e.name }
return [ends, b.readUInt32BE(0).toString(16), b.readUint8(0), b.readInt16LE(4), b.readDoubleLE(8), b.readUInt16BE(0), String(b.readBigUInt64BE(0)), range]`,
			`[[4,6,16],"deadbeef",222,-2,1.5,57005,"16045690985375531008","RangeError"]`),
		ok("node/Blob holds bytes and slices them", `
const blob = new Blob(["ab", new Uint8Array([99]), new Blob(["dé"])], { type: "Text/Plain" });
const sliced = blob.slice(1, -1, "x/y");
const f = new File(["12"], "a.txt", { type: "text/plain", lastModified: 5 });
let refused = "";
try { new Blob("abc") } catch (e) { refused = e.name }
return [blob.size, blob.type, await blob.text(), await sliced.text(), sliced.type, Array.from(await blob.bytes()).length, (await blob.arrayBuffer()).byteLength,
  Object.prototype.toString.call(blob), f.name, f.size, f.lastModified, f instanceof Blob, new Blob([], { type: "é" }).type, refused]`,
			`[6,"text/plain","abcdé","bcd�","x/y",6,6,"[object Blob]","a.txt",2,5,true,"","TypeError"]`),
		ok("node/Headers normalises names and joins values", `
const h = new Headers({ "Content-Type": "json" });
h.append("x-a", "1");
h.append("X-A", " 2 ");
h.set("set-cookie", "a");
h.append("set-cookie", "b");
const out = [h.get("x-a"), h.get("missing"), h.has("CONTENT-type"), [...h], h.getSetCookie(), [...h.keys()], [...new Headers([["b", "1"], ["a", "2"]]).values()]];
h.delete("x-a");
h.set("content-type", "text");
out.push([...new Headers(h)]);
const bad = [];
for (const f of [() => h.set("bad name", "x"), () => h.set("x", "a\r\nb"), () => new Headers([["only"]]), () => new Headers(5)]) { try { f(); bad.push("ok") } catch (e) { bad.push(e.name) } }
out.push(bad);
return out`,
			`["1, 2",null,true,[["content-type","json"],["set-cookie","a"],["set-cookie","b"],["x-a","1, 2"]],["a","b"],["content-type","set-cookie","set-cookie","x-a"],["2","1"],[["content-type","text"],["set-cookie","a"],["set-cookie","b"]],["TypeError","TypeError","TypeError","TypeError"]]`),
		ok("node/AbortController aborts its signal once", `
const ac = new AbortController();
const seen = [];
ac.signal.addEventListener("abort", (e) => seen.push(e.type + ":" + (e.target === ac.signal)));
ac.signal.addEventListener("abort", () => seen.push("once"), { once: true });
ac.signal.onabort = () => seen.push("on");
ac.abort();
ac.abort("again");
const custom = new AbortController();
custom.abort("why");
let thrown;
try { custom.signal.throwIfAborted() } catch (e) { thrown = e }
let illegal = "";
try { new AbortSignal() } catch (e) { illegal = e.name }
return [ac.signal.aborted, ac.signal.reason.name, ac.signal.reason.message, ac.signal.reason instanceof DOMException, seen, thrown, illegal,
  AbortSignal.abort().reason.name, AbortSignal.any([new AbortController().signal, AbortSignal.abort("x")]).reason]`,
			`[true,"AbortError","This operation was aborted",true,["abort:true","once","on"],"why","TypeError","AbortError","x"]`),
		with(ok("node/AbortSignal.timeout and any follow their sources", `
const t = AbortSignal.timeout(5);
const ac = new AbortController();
const any = AbortSignal.any([ac.signal, t]);
const before = [t.aborted, any.aborted];
await new Promise((r) => setTimeout(r, 40));
return [before, t.aborted, t.reason.name, t.reason.message, any.aborted, any.reason.name]`,
			`[[false,false],true,"TimeoutError","The operation was aborted due to timeout",true,"TimeoutError"]`), func(c *Case) { c.Script = []Action{Resolve(1, `null`), Resolve(2, `null`)} }),
		ok("node/EventTarget dispatches to its listeners", `
const et = new EventTarget();
const log = [];
const fn = (e) => log.push("fn:" + e.type);
et.addEventListener("ping", fn);
et.addEventListener("ping", fn);
et.addEventListener("ping", { handleEvent(e) { log.push("obj:" + e.detail) } });
et.addEventListener("ping", (e) => { e.stopImmediatePropagation(); log.push("stop") });
et.addEventListener("ping", () => log.push("never"));
const ev = new CustomEvent("ping", { detail: 7, cancelable: true });
et.addEventListener("ping", (e) => e.preventDefault());
const r1 = et.dispatchEvent(ev);
et.removeEventListener("ping", fn);
const ac = new AbortController();
et.addEventListener("pong", () => log.push("pong"), { signal: ac.signal });
ac.abort();
et.dispatchEvent(new Event("pong"));
const e2 = new Event("x", { cancelable: true });
e2.preventDefault();
return [log, r1, ev.defaultPrevented, ev.eventPhase, ev.target === null, e2.defaultPrevented, new Event("y").cancelable, typeof Event.AT_TARGET]`,
			`[["fn:ping","obj:7","stop"],true,false,0,false,true,false,"number"]`),
	}
}
