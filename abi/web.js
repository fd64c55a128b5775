// Web platform APIs models expect of modern JavaScript, evaluated by every
// engine after bridge.js: TextEncoder/TextDecoder, URL/URLSearchParams and
// structuredClone everywhere, and DOMException, atob/btoa, queueMicrotask and
// performance only where the engine lacks them (QuickJS-ng has its own; the
// goja oracle does not, and gets these, which behave like QuickJS's). Pure
// JavaScript, no host requests. Everything a later call uses is captured
// here, at evaluation time, so guest code that replaces built-ins cannot
// change what these do.
(() => {
  "use strict";
  const g = globalThis;
  const O = Object;
  const defineProperty = O.defineProperty, create = O.create, getPrototypeOf = O.getPrototypeOf;
  const apply = Reflect.apply, construct = Reflect.construct, ownKeys = Reflect.ownKeys;
  const uncurry = (f) => apply(Function.prototype.bind, Function.prototype.call, [f]);
  const getter = (o, k) => uncurry(O.getOwnPropertyDescriptor(o, k).get);
  const TypeErr = TypeError, RangeErr = RangeError, E = Error;
  const U8 = Uint8Array, U16 = Uint16Array, AB = ArrayBuffer;
  const fromCharCode = String.fromCharCode;
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const sliceStr = uncurry(String.prototype.slice);
  const indexOf = uncurry(String.prototype.indexOf);
  const lastIndexOf = uncurry(String.prototype.lastIndexOf);
  const toLower = uncurry(String.prototype.toLowerCase);
  const push = uncurry(Array.prototype.push);
  const join = uncurry(Array.prototype.join);
  const isArray = Array.isArray, isView = AB.isView;
  const min = Math.min;
  const objectToString = uncurry(O.prototype.toString);
  const propertyIsEnumerable = uncurry(O.prototype.propertyIsEnumerable);
  const WM = WeakMap, wmGet = uncurry(WM.prototype.get), wmSet = uncurry(WM.prototype.set), wmHas = uncurry(WM.prototype.has);
  const toStr = (v) => `${v}`; // WebIDL's DOMString: throws for symbols, like ToString
  const define = (name, value) =>
    defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });
  const missing = (name) => !O.prototype.hasOwnProperty.call(g, name);
  const hidden = (o, k, value) => defineProperty(o, k, { value, writable: true, enumerable: false, configurable: true });
  const tag = (C, name) => defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });

  // Typed array and buffer brand checks by the built-in getters, which no
  // guest object can fake.
  const TA = getPrototypeOf(U8.prototype);
  const taTag = getter(TA, Symbol.toStringTag), taBuffer = getter(TA, "buffer");
  const taOffset = getter(TA, "byteOffset"), taByteLength = getter(TA, "byteLength"), taLength = getter(TA, "length");
  const taSet = uncurry(TA.set);
  const dvBuffer = getter(DataView.prototype, "buffer"), dvOffset = getter(DataView.prototype, "byteOffset");
  const dvLength = getter(DataView.prototype, "byteLength");
  const abLength = getter(AB.prototype, "byteLength"), abSlice = uncurry(AB.prototype.slice);
  const attempt = (f, v) => { try { f(v); return true; } catch (_) { return false; } };
  const isBuffer = (v) => attempt(abLength, v);
  const isDataView = (v) => attempt(dvLength, v);
  // bytes gives a Uint8Array over a BufferSource (ArrayBuffer or any view).
  const bytes = (v, what) => {
    if (isView(v)) {
      return taTag(v) === undefined ? new U8(dvBuffer(v), dvOffset(v), dvLength(v)) : new U8(taBuffer(v), taOffset(v), taByteLength(v));
    }
    if (isBuffer(v)) return new U8(v);
    throw new TypeErr(what + " needs an ArrayBuffer, a typed array or a DataView");
  };
  // text turns n code units of an array T over buf into a string, in chunks
  // (String.fromCharCode over typed-array windows), never char by char.
  const CHUNK = 8192;
  const text = (T, buf, n, from = 0) => {
    const size = T.BYTES_PER_ELEMENT;
    if (n - from <= CHUNK) return apply(fromCharCode, null, new T(buf, from * size, n - from));
    const parts = [];
    for (let i = from; i < n; i += CHUNK) push(parts, apply(fromCharCode, null, new T(buf, i * size, min(CHUNK, n - i))));
    return join(parts, "");
  };

  // DOMException where missing (QuickJS has one): name, message and code are
  // getters on the prototype, as there.
  if (missing("DOMException")) {
    const slots = new WM();
    const codes = create(null);
    const legacy = "INDEX_SIZE DOMSTRING_SIZE HIERARCHY_REQUEST WRONG_DOCUMENT INVALID_CHARACTER NO_DATA_ALLOWED " +
      "NO_MODIFICATION_ALLOWED NOT_FOUND NOT_SUPPORTED INUSE_ATTRIBUTE INVALID_STATE SYNTAX INVALID_MODIFICATION " +
      "NAMESPACE INVALID_ACCESS VALIDATION TYPE_MISMATCH SECURITY NETWORK ABORT URL_MISMATCH QUOTA_EXCEEDED " +
      "TIMEOUT INVALID_NODE_TYPE DATA_CLONE";
    const DOMException = function DOMException(message = "", name = "Error") {
      if (new.target === undefined) throw new TypeErr("constructor requires 'new'");
      const e = construct(E, [], new.target);
      wmSet(slots, e, { message: toStr(message), name: toStr(name) });
      return e;
    };
    const slot = (self) => {
      if (!wmHas(slots, self)) throw new TypeErr("not a DOMException");
      return wmGet(slots, self);
    };
    const proto = create(E.prototype);
    hidden(proto, "constructor", DOMException);
    const get = { name() { return slot(this).name; }, message() { return slot(this).message; }, code() { return codes[slot(this).name] || 0; } };
    for (const k of ["name", "message", "code"]) defineProperty(proto, k, { get: get[k], enumerable: true, configurable: true });
    const words = legacy.split(" ");
    for (let i = 0; i < words.length; i++) {
      const konst = { value: i + 1, enumerable: true };
      defineProperty(DOMException, words[i] + "_ERR", konst);
      defineProperty(proto, words[i] + "_ERR", konst);
      if (i === 1 || i === 5 || i === 9 || i === 15) continue; // codes without a name
      const name = words[i] === "URL_MISMATCH" ? "URLMismatch"
        : words[i].split("_").map((w) => w[0] + w.slice(1).toLowerCase()).join("");
      codes[name + "Error"] = i + 1;
    }
    defineProperty(DOMException, "prototype", { value: proto, writable: false });
    defineProperty(proto, Symbol.toStringTag, { value: "DOMException", configurable: true });
    define("DOMException", DOMException);
  }
  const DOMExc = g.DOMException;

  // atob/btoa (HTML's forgiving base64), queueMicrotask and performance
  // where missing, with QuickJS's messages.
  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const b64Index = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) b64Index[B64.charCodeAt(i)] = i;
  const b64Codes = new U8(64);
  for (let i = 0; i < 64; i++) b64Codes[i] = B64.charCodeAt(i);
  const isSpace = (c) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
  const resolved = Promise.resolve(), thenOf = Promise.prototype.then, dateNow = Date.now;
  const natives = {
    atob(data) {
      const s = toStr(data), bad = () => new DOMExc("The string to be decoded is not correctly encoded", "InvalidCharacterError");
      const buf = new AB(s.length), out = new U8(buf);
      let n = 0, acc = 0, bits = 0, chars = 0, pad = 0;
      for (let i = 0; i < s.length; i++) {
        const c = charCodeAt(s, i);
        if (isSpace(c)) continue;
        if (c === 61) { pad++; continue; }
        const v = c < 128 ? b64Index[c] : -1;
        if (v < 0 || pad > 0) throw bad();
        chars++;
        acc = (acc << 6) | v; bits += 6;
        if (bits >= 8) { bits -= 8; out[n++] = acc >> bits; acc &= (1 << bits) - 1; }
      }
      if (chars % 4 === 1 || (pad > 0 && ((chars + pad) % 4 !== 0 || pad > 2))) throw bad();
      return text(U8, buf, n);
    },
    btoa(data) {
      const s = toStr(data), n = s.length;
      const buf = new AB(((n + 2) / 3 | 0) * 4), out = new U8(buf);
      let j = 0;
      for (let i = 0; i < n; i += 3) {
        const a = charCodeAt(s, i), b = i + 1 < n ? charCodeAt(s, i + 1) : 0, c = i + 2 < n ? charCodeAt(s, i + 2) : 0;
        if (a > 255 || b > 255 || c > 255) throw new DOMExc("String contains an invalid character", "InvalidCharacterError");
        out[j++] = b64Codes[a >> 2];
        out[j++] = b64Codes[((a & 3) << 4) | (b >> 4)];
        out[j++] = i + 1 < n ? b64Codes[((b & 15) << 2) | (c >> 6)] : 61;
        out[j++] = i + 2 < n ? b64Codes[c & 63] : 61;
      }
      return text(U8, buf, j);
    },
    // On goja an exception in the callback is lost (QuickJS fails the cell).
    queueMicrotask(callback) {
      if (typeof callback !== "function") throw new TypeErr("not a function");
      apply(thenOf, resolved, [() => { callback(); }]);
    },
  };
  for (const k of ["atob", "btoa", "queueMicrotask"]) if (missing(k)) define(k, natives[k]);
  if (missing("performance")) {
    // As QuickJS's: milliseconds since the epoch, from a time origin of 0.
    const performance = {};
    defineProperty(performance, "now", { value: { now() { return dateNow(); } }.now, enumerable: true });
    defineProperty(performance, "timeOrigin", { value: 0, enumerable: true });
    defineProperty(g, "performance", { value: performance, writable: true, enumerable: true, configurable: true });
  }

  // UTF-8. Encoding turns lone surrogates into U+FFFD; decoding follows the
  // WHATWG decoder (one U+FFFD per maximal subpart of an invalid sequence).
  const utf8Length = (s, from) => {
    const n = s.length;
    let len = n - from;
    for (let i = from; i < n; i++) {
      const c = charCodeAt(s, i);
      if (c < 0x80) continue;
      if (c < 0x800) { len += 1; continue; }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (charCodeAt(s, i + 1) & 0xfc00) === 0xdc00) { len += 2; i++; continue; }
      len += 2;
    }
    return len;
  };
  // writeUTF8 writes whole characters of s from index i into out from index
  // j while they fit in cap bytes; it gives [code units read, bytes written].
  const writeUTF8 = (s, i, out, j, cap) => {
    const n = s.length;
    while (i < n) {
      let c = charCodeAt(s, i), k = 1;
      if (c < 0x80) {
        if (j >= cap) break;
        out[j++] = c; i++;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = c <= 0xdbff && i + 1 < n ? charCodeAt(s, i + 1) : 0;
        if ((d & 0xfc00) === 0xdc00) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); k = 2; } else c = 0xfffd;
      }
      if (c < 0x800) {
        if (j + 2 > cap) break;
        out[j++] = 0xc0 | (c >> 6);
      } else if (c < 0x10000) {
        if (j + 3 > cap) break;
        out[j++] = 0xe0 | (c >> 12); out[j++] = 0x80 | ((c >> 6) & 63);
      } else {
        if (j + 4 > cap) break;
        out[j++] = 0xf0 | (c >> 18); out[j++] = 0x80 | ((c >> 12) & 63); out[j++] = 0x80 | ((c >> 6) & 63);
      }
      out[j++] = 0x80 | (c & 63);
      i += k;
    }
    return [i, j];
  };
  const encodeUTF8 = (s) => {
    // One pass when the text is ASCII: guess a byte per code unit, and only
    // when that does not fit, count the rest.
    const n = s.length, out = new U8(n);
    const [i, j] = writeUTF8(s, 0, out, 0, n);
    if (i === n) return out;
    const total = j + utf8Length(s, i), whole = new U8(total);
    taSet(whole, new U8(taBuffer(out), 0, j));
    writeUTF8(s, i, whole, j, total);
    return whole;
  };
  // decodeUTF8 decodes b on state st ({cp, need, seen, lo, hi, started},
  // carried between streaming calls); flush ends the stream. fatal throws
  // instead of giving U+FFFD. skipBOM drops a U+FEFF that starts the stream.
  const newState = () => ({ cp: 0, need: 0, seen: 0, lo: 0x80, hi: 0xbf, started: false });
  const decodeUTF8 = (b, st, flush, fatal, skipBOM) => {
    const n = b.length, buf = new AB((n + 4) * 2), out = new U16(buf);
    let { cp, need, seen, lo, hi } = st, j = 0;
    const bad = () => {
      if (fatal) { st.cp = st.need = st.seen = 0; st.lo = 0x80; st.hi = 0xbf; throw new TypeErr("The encoded data was not valid for encoding utf-8"); }
      out[j++] = 0xfffd;
    };
    for (let i = 0; i < n; i++) {
      const c = b[i];
      if (need === 0) {
        if (c < 0x80) out[j++] = c;
        else if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { if (c === 0xe0) lo = 0xa0; else if (c === 0xed) hi = 0x9f; need = 2; cp = c & 0xf; }
        else if (c >= 0xf0 && c <= 0xf4) { if (c === 0xf0) lo = 0x90; else if (c === 0xf4) hi = 0x8f; need = 3; cp = c & 7; }
        else bad();
        continue;
      }
      if (c < lo || c > hi) {
        cp = need = seen = 0; lo = 0x80; hi = 0xbf;
        bad();
        i--; // the byte starts again
        continue;
      }
      lo = 0x80; hi = 0xbf;
      cp = (cp << 6) | (c & 0x3f);
      if (++seen !== need) continue;
      if (cp < 0x10000) out[j++] = cp;
      else { cp -= 0x10000; out[j++] = 0xd800 + (cp >> 10); out[j++] = 0xdc00 + (cp & 0x3ff); }
      cp = need = seen = 0;
    }
    if (flush && need !== 0) { cp = need = seen = 0; lo = 0x80; hi = 0xbf; bad(); }
    st.cp = cp; st.need = need; st.seen = seen; st.lo = lo; st.hi = hi;
    const from = skipBOM && !st.started && j > 0 && out[0] === 0xfeff ? 1 : 0;
    if (j > 0) st.started = true;
    return text(U16, buf, j, from);
  };

  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") { return encodeUTF8(toStr(input)); }
    encodeInto(source, destination) {
      if (!isView(destination) || taTag(destination) !== "Uint8Array") throw new TypeErr("TextEncoder.encodeInto needs a Uint8Array destination");
      const [read, written] = writeUTF8(toStr(source), 0, destination, 0, taLength(destination));
      return { read, written };
    }
  }
  tag(TextEncoder, "TextEncoder");

  const labels = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];
  const trim = (s) => {
    let i = 0, k = s.length;
    while (i < k && isSpace(charCodeAt(s, i))) i++;
    while (k > i && isSpace(charCodeAt(s, k - 1))) k--;
    return sliceStr(s, i, k);
  };
  const dictionary = (v, what) => {
    if (v === undefined || v === null) return {};
    if (typeof v !== "object" && typeof v !== "function") throw new TypeErr(what + " options must be an object");
    return v;
  };
  class TextDecoder {
    #fatal; #ignoreBOM; #state = newState(); #streaming = false;
    constructor(label = "utf-8", options = undefined) {
      const name = toLower(trim(toStr(label)));
      let known = false;
      for (let i = 0; i < labels.length; i++) if (labels[i] === name) known = true;
      if (!known) throw new RangeErr(`The "${toStr(label)}" encoding is not supported`);
      const o = dictionary(options, "TextDecoder");
      this.#fatal = !!o.fatal;
      this.#ignoreBOM = !!o.ignoreBOM;
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input = undefined, options = undefined) {
      const b = input === undefined ? new U8(0) : bytes(input, "TextDecoder.decode");
      const stream = !!dictionary(options, "TextDecoder.decode").stream;
      if (!this.#streaming) this.#state = newState();
      this.#streaming = stream;
      try {
        return decodeUTF8(b, this.#state, !stream, this.#fatal, !this.#ignoreBOM);
      } catch (e) {
        this.#streaming = false;
        throw e;
      }
    }
  }
  tag(TextDecoder, "TextDecoder");
  define("TextEncoder", TextEncoder);
  define("TextDecoder", TextDecoder);
})();
