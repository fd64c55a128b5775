// Blob, File and Headers, the fetch API's data types that models use on
// their own (to count or slice bytes, to pass headers to a tool), evaluated
// by every engine after web.js. There is no network, so no Request,
// Response or stream(); a Blob holds its bytes in the VM. Everything a
// later call uses is captured here.
(() => {
  "use strict";
  const g = globalThis;
  const O = Object, defineProperty = O.defineProperty, keysOf = O.keys, getPrototypeOf = O.getPrototypeOf;
  const apply = Reflect.apply;
  const TypeErr = TypeError;
  const U8 = Uint8Array, AB = ArrayBuffer, isView = AB.isView;
  const WM = WeakMap, wmGet = WM.prototype.get, wmSet = WM.prototype.set;
  const push = Array.prototype.push, sort = Array.prototype.sort, join = Array.prototype.join;
  const str = String, floor = Math.floor, min = Math.min, max = Math.max, dateNow = Date.now;
  const charCodeAt = String.prototype.charCodeAt, toLower = String.prototype.toLowerCase, sliceStr = String.prototype.slice;
  const resolve = (v) => Promise.resolve(v);
  const utf8 = new g.TextEncoder(), encode = g.TextEncoder.prototype.encode;
  const utf8Decoder = new g.TextDecoder(), decode = g.TextDecoder.prototype.decode;
  const TA = getPrototypeOf(U8.prototype);
  const taSet = TA.set, taSlice = TA.slice, taLength = O.getOwnPropertyDescriptor(TA, "length").get;
  const abLength = O.getOwnPropertyDescriptor(AB.prototype, "byteLength").get;
  const iterator = Symbol.iterator;
  const define = (name, value) =>
    defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });
  const tag = (C, name) => defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const slotOf = (slots, what) => (self) => {
    const s = apply(wmGet, slots, [self]);
    if (s === undefined) throw new TypeErr("Illegal invocation: not " + what);
    return s;
  };
  const isAB = (v) => { try { apply(abLength, v, []); return true; } catch (_) { return false; } };
  const iterable = (v) => v !== null && (typeof v === "object" || typeof v === "function") && typeof v[iterator] === "function";

  // A Blob's type is kept lower-cased when it is printable ASCII, else "".
  const typeOf = (t) => {
    if (t === undefined) return "";
    const s = str(t);
    for (let i = 0; i < s.length; i++) {
      const c = apply(charCodeAt, s, [i]);
      if (c < 0x20 || c > 0x7e) return "";
    }
    return apply(toLower, s, []);
  };
  const blobs = new WM(), blobSlot = slotOf(blobs, "a Blob");
  const copy = (v) => {
    if (isAB(v)) return new U8(apply(taSlice, new U8(v), []));
    return new U8(apply(taSlice, new U8(v.buffer, v.byteOffset, v.byteLength), []));
  };
  class Blob {
    constructor(parts, options) {
      const chunks = [];
      let size = 0;
      if (parts !== undefined) {
        if (!iterable(parts) || typeof parts === "string") throw new TypeErr("Blob's parts must be a sequence (an array) of strings, buffers and Blobs");
        for (const p of parts) {
          const s = apply(wmGet, blobs, [p]);
          const b = s !== undefined ? s.bytes : isAB(p) || isView(p) ? copy(p) : apply(encode, utf8, [str(p)]);
          apply(push, chunks, [b]);
          size += apply(taLength, b, []);
        }
      }
      const bytes = new U8(size);
      for (let i = 0, at = 0; i < chunks.length; i++) { apply(taSet, bytes, [chunks[i], at]); at += apply(taLength, chunks[i], []); }
      const o = options === undefined || options === null ? {} : options;
      apply(wmSet, blobs, [this, { bytes, type: typeOf(o.type) }]);
    }
    get size() { return apply(taLength, blobSlot(this).bytes, []); }
    get type() { return blobSlot(this).type; }
    text() { return resolve(apply(decode, utf8Decoder, [blobSlot(this).bytes])); }
    arrayBuffer() { return resolve(apply(taSlice, blobSlot(this).bytes, []).buffer); }
    bytes() { return resolve(apply(taSlice, blobSlot(this).bytes, [])); }
    slice(start, end, contentType) {
      const b = blobSlot(this).bytes, n = apply(taLength, b, []);
      const at = (v, d) => {
        if (v === undefined) return d;
        const i = floor(Number(v)) || 0;
        return i < 0 ? max(n + i, 0) : min(i, n);
      };
      const s = at(start, 0), e = at(end, n);
      const out = new Blob([], { type: contentType });
      apply(wmGet, blobs, [out]).bytes = apply(taSlice, b, [s, max(s, e)]);
      return out;
    }
  }
  tag(Blob, "Blob");

  const files = new WM();
  class File extends Blob {
    constructor(parts, name, options) {
      if (arguments.length < 2) throw new TypeErr("File needs its parts and a name");
      super(parts, options);
      const o = options === undefined || options === null ? {} : options;
      const when = o.lastModified === undefined ? dateNow() : floor(Number(o.lastModified)) || 0;
      apply(wmSet, files, [this, { name: str(name), lastModified: when }]);
    }
    get name() { return slotOf(files, "a File")(this).name; }
    get lastModified() { return slotOf(files, "a File")(this).lastModified; }
  }
  tag(File, "File");

  // Headers: a list of [lower-case name, value] in insertion order; reading
  // it sorts by name and joins the values of one name with ", " (except
  // set-cookie, whose values stay apart).
  const TOKEN = "!#$%&'*+-.^_`|~";
  const checkName = (name) => {
    const s = str(name);
    let ok = s.length > 0;
    for (let i = 0; ok && i < s.length; i++) {
      const c = apply(charCodeAt, s, [i]);
      ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c < 128 && TOKEN.indexOf(s[i]) >= 0);
    }
    if (!ok) throw new TypeErr("Invalid header name: " + JSON.stringify(s));
    return apply(toLower, s, []);
  };
  const space = (c) => c === 9 || c === 10 || c === 13 || c === 32;
  const checkValue = (value, name) => {
    const s = str(value);
    let a = 0, b = s.length;
    while (a < b && space(apply(charCodeAt, s, [a]))) a++;
    while (b > a && space(apply(charCodeAt, s, [b - 1]))) b--;
    const v = apply(sliceStr, s, [a, b]);
    for (let i = 0; i < v.length; i++) {
      const c = apply(charCodeAt, v, [i]);
      if (c === 0 || c === 10 || c === 13 || c > 255) throw new TypeErr("Invalid value of header " + JSON.stringify(name));
    }
    return v;
  };
  const headers = new WM(), headerSlot = slotOf(headers, "a Headers");
  const add = (list, name, value) => { const n = checkName(name); apply(push, list, [[n, checkValue(value, n)]]); };
  // sorted gives the pairs a reader sees.
  const sorted = (list) => {
    const names = [];
    for (let i = 0; i < list.length; i++) if (names.indexOf(list[i][0]) < 0) apply(push, names, [list[i][0]]);
    apply(sort, names, []);
    const out = [];
    for (let i = 0; i < names.length; i++) {
      const n = names[i], vs = [];
      for (let j = 0; j < list.length; j++) if (list[j][0] === n) apply(push, vs, [list[j][1]]);
      if (n === "set-cookie") for (let j = 0; j < vs.length; j++) apply(push, out, [[n, vs[j]]]);
      else apply(push, out, [[n, apply(join, vs, [", "])]]);
    }
    return out;
  };
  class Headers {
    constructor(init) {
      const list = [];
      apply(wmSet, headers, [this, list]);
      if (init === undefined || init === null) return;
      if (typeof init !== "object" && typeof init !== "function") throw new TypeErr("Headers takes an object, an array of [name, value] pairs or Headers");
      const other = apply(wmGet, headers, [init]);
      if (other !== undefined) { for (let i = 0; i < other.length; i++) apply(push, list, [[other[i][0], other[i][1]]]); return; }
      if (iterable(init)) {
        for (const pair of init) {
          if (!iterable(pair)) throw new TypeErr("Each header must be a [name, value] pair");
          const p = [...pair];
          if (p.length !== 2) throw new TypeErr("Each header must be a [name, value] pair, not " + p.length + " items");
          add(list, p[0], p[1]);
        }
        return;
      }
      const ks = keysOf(init);
      for (let i = 0; i < ks.length; i++) add(list, ks[i], init[ks[i]]);
    }
    append(name, value) { add(headerSlot(this), name, value); }
    delete(name) {
      const list = headerSlot(this), n = checkName(name);
      for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === n) list.splice(i, 1);
    }
    get(name) {
      const list = headerSlot(this), n = checkName(name), vs = [];
      for (let i = 0; i < list.length; i++) if (list[i][0] === n) apply(push, vs, [list[i][1]]);
      return vs.length === 0 ? null : apply(join, vs, [", "]);
    }
    getSetCookie() {
      const list = headerSlot(this), vs = [];
      for (let i = 0; i < list.length; i++) if (list[i][0] === "set-cookie") apply(push, vs, [list[i][1]]);
      return vs;
    }
    has(name) {
      const list = headerSlot(this), n = checkName(name);
      for (let i = 0; i < list.length; i++) if (list[i][0] === n) return true;
      return false;
    }
    set(name, value) {
      const list = headerSlot(this), n = checkName(name), v = checkValue(value, n);
      let at = -1;
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i][0] !== n) continue;
        if (at >= 0) list.splice(at, 1);
        at = i;
      }
      if (at >= 0) list[at][1] = v; else apply(push, list, [[n, v]]);
    }
    forEach(fn, thisArg) {
      if (typeof fn !== "function") throw new TypeErr("Headers.forEach needs a function");
      const pairs = sorted(headerSlot(this));
      for (let i = 0; i < pairs.length; i++) apply(fn, thisArg, [pairs[i][1], pairs[i][0], this]);
    }
    *entries() { const p = sorted(headerSlot(this)); for (let i = 0; i < p.length; i++) yield [p[i][0], p[i][1]]; }
    *keys() { const p = sorted(headerSlot(this)); for (let i = 0; i < p.length; i++) yield p[i][0]; }
    *values() { const p = sorted(headerSlot(this)); for (let i = 0; i < p.length; i++) yield p[i][1]; }
  }
  defineProperty(Headers.prototype, iterator, { value: Headers.prototype.entries, writable: true, configurable: true });
  tag(Headers, "Headers");

  for (const C of [Blob, File, Headers]) define(C.name, C);
})();
