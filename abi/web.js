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
  const getOwnDesc = O.getOwnPropertyDescriptor;
  const getter = (o, k) => uncurry(getOwnDesc(o, k).get);
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
    const slots = new WM(), codes = create(null), proto = create(E.prototype);
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
    const get = { name() { return slot(this).name; }, message() { return slot(this).message; }, code() { return codes[slot(this).name] || 0; } };
    for (const k of ["name", "message", "code"]) defineProperty(proto, k, { get: get[k], enumerable: true, configurable: true });
    // The legacy code constants, in code order; four codes have no name.
    const words = ("INDEX_SIZE DOMSTRING_SIZE HIERARCHY_REQUEST WRONG_DOCUMENT INVALID_CHARACTER NO_DATA_ALLOWED NO_MODIFICATION_ALLOWED " +
      "NOT_FOUND NOT_SUPPORTED INUSE_ATTRIBUTE INVALID_STATE SYNTAX INVALID_MODIFICATION NAMESPACE INVALID_ACCESS VALIDATION " +
      "TYPE_MISMATCH SECURITY NETWORK ABORT URL_MISMATCH QUOTA_EXCEEDED TIMEOUT INVALID_NODE_TYPE DATA_CLONE").split(" ");
    words.forEach((w, i) => {
      for (const o of [DOMException, proto]) defineProperty(o, w + "_ERR", { value: i + 1, enumerable: true });
      if (i === 1 || i === 5 || i === 9 || i === 15) return;
      codes[w === "URL_MISMATCH" ? "URLMismatchError" : w.split("_").map((x) => x[0] + x.slice(1).toLowerCase()).join("") + "Error"] = i + 1;
    });
    hidden(proto, "constructor", DOMException);
    defineProperty(proto, Symbol.toStringTag, { value: "DOMException", configurable: true });
    defineProperty(DOMException, "prototype", { value: proto, writable: false });
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
    for (const n = s.length; i < n;) {
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
      const size = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (j + size > cap) break;
      if (size === 2) out[j++] = 0xc0 | (c >> 6);
      else if (size === 3) { out[j++] = 0xe0 | (c >> 12); out[j++] = 0x80 | ((c >> 6) & 63); }
      else { out[j++] = 0xf0 | (c >> 18); out[j++] = 0x80 | ((c >> 12) & 63); out[j++] = 0x80 | ((c >> 6) & 63); }
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

  // URL and URLSearchParams: the WHATWG parser's common paths. Simplified:
  // hosts get lowercasing and punycode for non-ASCII labels but no other
  // IDNA/UTS #46 mapping; bracketed IPv6 hosts are kept as given
  // (lowercased), not compressed; file URLs know no Windows drive letters.
  const isAlpha = (c) => (c | 32) >= 97 && (c | 32) <= 122;
  const isDigit = (c) => c >= 48 && c <= 57;
  const HEX = "0123456789ABCDEF";
  const hexValue = (c) => isDigit(c) ? c - 48 : (c | 32) >= 97 && (c | 32) <= 102 ? (c | 32) - 87 : -1;
  const special = create(null); // scheme -> default port
  special.http = "80"; special.https = "443"; special.ws = "80"; special.wss = "443"; special.ftp = "21"; special.file = "";
  // Percent-encode sets: the C0 controls and non-ASCII, and these.
  const FRAGMENT = ' "<>`', QUERY = ' "#<>', SPECIAL_QUERY = QUERY + "'", PATH = QUERY + "?`{}", USERINFO = PATH + "/:;=@[\\]^|";
  const FORBIDDEN_HOST = "\0\t\n\r #/:<>?@[\\]^|";
  const pct = (s, set) => {
    let out = "", from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = charCodeAt(s, i);
      if (c >= 0x20 && c < 0x7f && indexOf(set, s[i]) < 0) continue;
      const k = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (charCodeAt(s, i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      const b = encodeUTF8(sliceStr(s, i, i + k));
      out += sliceStr(s, from, i);
      for (let m = 0; m < b.length; m++) out += "%" + HEX[b[m] >> 4] + HEX[b[m] & 15];
      i += k - 1;
      from = i + 1;
    }
    return from === 0 ? s : out + sliceStr(s, from);
  };
  // unpct percent-decodes s (and + as space, for forms) and reads the bytes as UTF-8.
  const unpct = (s, plus) => {
    if (indexOf(s, "%") < 0 && !(plus && indexOf(s, "+") >= 0)) return s;
    const b = encodeUTF8(s), n = b.length, buf = new AB(n), out = new U8(buf);
    let j = 0;
    for (let i = 0; i < n; i++) {
      let c = b[i];
      if (c === 43 && plus) c = 32;
      else if (c === 37 && i + 2 < n) {
        const h = hexValue(b[i + 1]), l = hexValue(b[i + 2]);
        if (h >= 0 && l >= 0) { c = h * 16 + l; i += 2; }
      }
      out[j++] = c;
    }
    return decodeUTF8(new U8(buf, 0, j), newState(), true, false, false);
  };
  const formEncode = (s) => {
    const b = encodeUTF8(s);
    let out = "";
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if (isDigit(c) || isAlpha(c) || c === 42 || c === 45 || c === 46 || c === 95) out += fromCharCode(c);
      else out += c === 32 ? "+" : "%" + HEX[c >> 4] + HEX[c & 15];
    }
    return out;
  };
  const parseForm = (s) => {
    const list = [];
    for (let i = 0; i < s.length;) {
      let amp = indexOf(s, "&", i);
      if (amp < 0) amp = s.length;
      const part = sliceStr(s, i, amp), eq = indexOf(part, "=");
      if (part !== "") push(list, eq < 0 ? [unpct(part, true), ""] : [unpct(sliceStr(part, 0, eq), true), unpct(sliceStr(part, eq + 1), true)]);
      i = amp + 1;
    }
    return list;
  };

  // Punycode (RFC 3492) for a host label with non-ASCII code points.
  const floor = Math.floor;
  const adapt = (delta, points, first) => {
    delta = first ? floor(delta / 700) : delta >> 1;
    delta += floor(delta / points);
    let k = 0;
    for (; delta > 455; k += 36) delta = floor(delta / 35);
    return k + floor((36 * delta) / (delta + 38));
  };
  const digit = (d) => fromCharCode(d < 26 ? 97 + d : 22 + d);
  const punycode = (label) => {
    const cps = [];
    let out = "";
    for (let i = 0; i < label.length; i++) {
      let c = charCodeAt(label, i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < label.length) c = 0x10000 + ((c - 0xd800) << 10) + (charCodeAt(label, ++i) - 0xdc00);
      push(cps, c);
      if (c < 0x80) out += fromCharCode(c);
    }
    const basic = out.length;
    let h = basic, n = 128, delta = 0, bias = 72;
    if (basic > 0) out += "-";
    while (h < cps.length) {
      let m = 0x7fffffff;
      for (let i = 0; i < cps.length; i++) if (cps[i] >= n && cps[i] < m) m = cps[i];
      delta += (m - n) * (h + 1);
      n = m;
      for (let i = 0; i < cps.length; i++) {
        if (cps[i] < n) delta++;
        if (cps[i] !== n) continue;
        let q = delta;
        for (let k = 36; ; k += 36) {
          const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
          if (q < t) break;
          out += digit(t + ((q - t) % (36 - t)));
          q = floor((q - t) / (36 - t));
        }
        out += digit(q);
        bias = adapt(delta, h + 1, h === basic);
        delta = 0;
        h++;
      }
      delta++;
      n++;
    }
    return "xn--" + out;
  };
  const splitDots = (s) => {
    const out = [];
    for (let i = 0; ;) {
      const dot = indexOf(s, ".", i);
      push(out, sliceStr(s, i, dot < 0 ? s.length : dot));
      if (dot < 0) return out;
      i = dot + 1;
    }
  };
  // IPv4: a host whose last label is a number must be a whole IPv4 address.
  const ipv4Part = (p) => {
    let radix = 10, i = 0;
    if (p.length > 1 && p[0] === "0") {
      if (p[1] === "x" || p[1] === "X") { radix = 16; i = 2; } else { radix = 8; i = 1; }
    }
    let v = 0;
    for (; i < p.length; i++) {
      const d = hexValue(charCodeAt(p, i));
      if (d < 0 || d >= radix) return -1;
      v = v * radix + d;
    }
    return v;
  };
  const ipv4 = (host) => {
    const parts = splitDots(host);
    if (parts[parts.length - 1] === "" && parts.length > 1) parts.length--;
    const last = parts[parts.length - 1], hex = last[0] === "0" && (last[1] === "x" || last[1] === "X");
    let numeric = last !== "";
    for (let i = hex ? 2 : 0; i < last.length; i++) if (hexValue(charCodeAt(last, i)) < 0 || (!hex && !isDigit(charCodeAt(last, i)))) numeric = false;
    if (!numeric) return host;
    if (parts.length > 4) return null;
    let addr = 0;
    for (let i = 0; i < parts.length; i++) {
      const v = parts[i] === "" ? -1 : ipv4Part(parts[i]);
      if (v < 0 || (i < parts.length - 1 && v > 255)) return null;
      if (i === parts.length - 1) {
        if (v >= 256 ** (5 - parts.length)) return null;
        addr += v;
      } else addr += v * 256 ** (3 - i);
    }
    return (addr >>> 24) + "." + ((addr >> 16) & 255) + "." + ((addr >> 8) & 255) + "." + (addr & 255);
  };
  const parseHost = (h, isSpecial) => {
    if (h[0] === "[") {
      if (h[h.length - 1] !== "]" || h.length < 4) return null;
      const v6 = toLower(h);
      for (let i = 1; i < v6.length - 1; i++) if (hexValue(charCodeAt(v6, i)) < 0 && v6[i] !== ":" && v6[i] !== ".") return null;
      return v6;
    }
    for (let i = 0; i < h.length; i++) if (indexOf(FORBIDDEN_HOST, h[i]) >= 0) return null;
    if (!isSpecial) return pct(h, "");
    const d = toLower(unpct(h, false));
    if (d === "") return null;
    let ascii = true;
    for (let i = 0; i < d.length; i++) {
      const c = charCodeAt(d, i);
      if (c < 0x20 || c === 0x25 || c === 0x7f || c === 0xfffd || indexOf(FORBIDDEN_HOST, d[i]) >= 0) return null;
      if (c >= 0x80) ascii = false;
    }
    let out = d;
    if (!ascii) {
      const ls = splitDots(d);
      for (let i = 0; i < ls.length; i++) {
        for (let k = 0; k < ls[i].length; k++) if (charCodeAt(ls[i], k) >= 0x80) { ls[i] = punycode(ls[i]); break; }
      }
      out = join(ls, ".");
    }
    return ipv4(out);
  };

  // A URL record: scheme, user, pass, host (null or a string), port (null
  // or a string), path (segments, or a string when opaque), query, frag.
  const record = (scheme) => ({ scheme, user: "", pass: "", host: null, port: null, path: [], opaque: false, query: null, frag: null });
  const copy = (r) => ({ scheme: r.scheme, user: r.user, pass: r.pass, host: r.host, port: r.port,
    path: r.opaque ? r.path : sliceArr(r.path), opaque: r.opaque, query: r.query, frag: r.frag });
  const sliceArr = uncurry(Array.prototype.slice), pop = uncurry(Array.prototype.pop), sortArr = uncurry(Array.prototype.sort);
  const isSlash = (ch, sp) => ch === "/" || (sp && ch === "\\");
  const dotSegment = (s) => {
    const l = toLower(s);
    return l === "." || l === "%2e" ? 1 : l === ".." || l === ".%2e" || l === "%2e." || l === "%2e%2e" ? 2 : 0;
  };
  // path appends path text p (no query or fragment) to r.path, resolving dot segments.
  const path = (p, r) => {
    const sp = special[r.scheme] !== undefined, segs = r.path, pieces = [];
    let from = 0;
    for (let i = 0; i <= p.length; i++) {
      if (i < p.length && !isSlash(p[i], sp)) continue;
      push(pieces, sliceStr(p, from, i));
      from = i + 1;
    }
    const first = isSlash(p[0], sp) ? 1 : 0;
    if (p === "" && !sp) return;
    for (let i = first; i < pieces.length; i++) {
      const dots = dotSegment(pieces[i]), last = i === pieces.length - 1;
      if (dots === 2) { if (segs.length > 0) pop(segs); if (last) push(segs, ""); }
      else if (dots === 1) { if (last) push(segs, ""); }
      else push(segs, pct(pieces[i], PATH));
    }
  };
  // tail parses the path, query and fragment of s into r.
  const tail = (s, r, keepPath) => {
    let q = indexOf(s, "?");
    const h = indexOf(s, "#");
    if (h >= 0 && q > h) q = -1;
    const end = q >= 0 ? q : h >= 0 ? h : s.length;
    if (r.opaque) r.path = pct(sliceStr(s, 0, end), "");
    else if (!keepPath) path(sliceStr(s, 0, end), r);
    if (q >= 0) r.query = pct(sliceStr(s, q + 1, h >= 0 ? h : s.length), special[r.scheme] !== undefined ? SPECIAL_QUERY : QUERY);
    if (h >= 0) r.frag = pct(sliceStr(s, h + 1), FRAGMENT);
    return r;
  };
  const parsePort = (p, scheme) => {
    if (p === "") return null;
    let v = 0;
    for (let i = 0; i < p.length; i++) {
      const c = charCodeAt(p, i);
      if (!isDigit(c)) return undefined;
      v = v * 10 + c - 48;
      if (v > 65535) return undefined;
    }
    return special[scheme] === `${v}` ? null : `${v}`;
  };
  // splitHostPort gives [host, port or null] of h, minding IPv6 brackets.
  const splitHostPort = (h) => {
    const close = h[0] === "[" ? indexOf(h, "]") : -1;
    const colon = indexOf(h, ":", close < 0 ? 0 : close);
    return colon < 0 ? [h, null] : [sliceStr(h, 0, colon), sliceStr(h, colon + 1)];
  };
  const authorityEnd = (s, sp) => {
    let end = 0;
    while (end < s.length && s[end] !== "/" && s[end] !== "?" && s[end] !== "#" && !(sp && s[end] === "\\")) end++;
    return end;
  };
  // authority parses s, after the "//", into r.
  const authority = (s, r) => {
    const sp = special[r.scheme] !== undefined, end = authorityEnd(s, sp), auth = sliceStr(s, 0, end);
    const file = r.scheme === "file", at = file ? -1 : lastIndexOf(auth, "@");
    if (at >= 0) {
      const creds = sliceStr(auth, 0, at), colon = indexOf(creds, ":");
      r.user = pct(colon < 0 ? creds : sliceStr(creds, 0, colon), USERINFO);
      r.pass = colon < 0 ? "" : pct(sliceStr(creds, colon + 1), USERINFO);
    }
    const [h, p] = file ? [auth, null] : splitHostPort(sliceStr(auth, at + 1));
    if (h === "" && !file && (sp || at >= 0 || p !== null)) return null;
    r.host = h === "" ? "" : parseHost(h, sp);
    if (r.host === null) return null;
    if (file && r.host === "localhost") r.host = "";
    if (p !== null && (r.port = parsePort(p, r.scheme)) === undefined) return null;
    return tail(sliceStr(s, end), r);
  };
  const relative = (s, base) => {
    const r = copy(base), sp = special[r.scheme] !== undefined;
    r.frag = null;
    if (isSlash(s[0], sp) && isSlash(s[1], sp)) {
      r.user = r.pass = ""; r.port = null; r.path = []; r.query = null;
      return authority(sliceStr(s, 2), r);
    }
    if (s === "" || s[0] === "#") return s === "" ? r : tail(s, r, true);
    r.query = null;
    if (s[0] === "?") return tail(s, r, true);
    if (isSlash(s[0], sp)) r.path = [];
    else if (r.path.length > 0) pop(r.path);
    return tail(s, r);
  };
  const clean = (input) => {
    let i = 0, k = input.length, out = "";
    while (i < k && charCodeAt(input, i) <= 0x20) i++;
    while (k > i && charCodeAt(input, k - 1) <= 0x20) k--;
    for (let j = i; j < k; j++) {
      const c = charCodeAt(input, j);
      if (c === 9 || c === 10 || c === 13) { out += sliceStr(input, i, j); i = j + 1; }
    }
    return out + sliceStr(input, i, k);
  };
  // schemeOf gives the length of s's scheme (before a ":"), or 0.
  const schemeOf = (s) => {
    if (!isAlpha(charCodeAt(s, 0))) return 0;
    let i = 1;
    for (let c; i < s.length && (isAlpha(c = charCodeAt(s, i)) || isDigit(c) || c === 43 || c === 45 || c === 46);) i++;
    return s[i] === ":" ? i : 0;
  };
  // parse is the basic URL parser: a record, or null for failure.
  const parse = (input, base) => {
    const s = clean(input), n = schemeOf(s);
    if (n === 0) {
      if (base === null) return null;
      if (!base.opaque) return relative(s, base);
      if (s[0] !== "#") return null;
      const r = copy(base);
      r.frag = pct(sliceStr(s, 1), FRAGMENT);
      return r;
    }
    const r = record(toLower(sliceStr(s, 0, n)));
    const rest = sliceStr(s, n + 1);
    if (r.scheme === "file") {
      r.host = "";
      if (isSlash(rest[0], true) && isSlash(rest[1], true)) return authority(sliceStr(rest, 2), r);
      if (base === null || base.scheme !== "file") return tail(rest, r);
      if (isSlash(rest[0], true)) { r.host = base.host; return tail(rest, r); }
      return relative(rest, base);
    }
    if (special[r.scheme] !== undefined) {
      if (base !== null && base.scheme === r.scheme && !(isSlash(rest[0], true) && isSlash(rest[1], true))) return relative(rest, base);
      let i = 0;
      while (isSlash(rest[i], true)) i++;
      return authority(sliceStr(rest, i), r);
    }
    if (rest[0] === "/" && rest[1] === "/") return authority(sliceStr(rest, 2), r);
    if (rest[0] !== "/") r.opaque = true;
    return tail(rest, r);
  };
  const pathname = (r) => r.opaque ? r.path : r.path.length > 0 ? "/" + join(r.path, "/") : "";
  const serialize = (r) => {
    let out = r.scheme + ":";
    if (r.host !== null) {
      out += "//";
      if (r.user !== "" || r.pass !== "") out += r.user + (r.pass !== "" ? ":" + r.pass : "") + "@";
      out += r.host + (r.port !== null ? ":" + r.port : "");
    } else if (!r.opaque && r.path.length > 1 && r.path[0] === "") out += "/.";
    out += pathname(r);
    if (r.query !== null) out += "?" + r.query;
    if (r.frag !== null) out += "#" + r.frag;
    return out;
  };
  const withBase = (url, base) => {
    let b = null;
    if (base !== undefined) {
      b = parse(toStr(base), null);
      if (b === null) return null;
    }
    return parse(toStr(url), b);
  };

  const urls = new WM(), paramsState = new WM();
  const slotOf = (map, what) => (self) => {
    if (!wmHas(map, self)) throw new TypeErr("not a " + what);
    return wmGet(map, self);
  };
  const urlOf = slotOf(urls, "URL"), paramsOf = slotOf(paramsState, "URLSearchParams");
  // The URL's query and its searchParams' list stay in step both ways.
  const setQuery = (u, query) => {
    u.r.query = query;
    paramsOf(u.params).list = query === null ? [] : parseForm(query);
  };
  const changed = (st) => {
    if (st.url === null) return;
    const q = serializeForm(st.list);
    st.url.r.query = q === "" ? null : q;
  };
  const serializeForm = (list) => {
    const parts = [];
    for (let i = 0; i < list.length; i++) push(parts, formEncode(list[i][0]) + "=" + formEncode(list[i][1]));
    return join(parts, "&");
  };
  const needs = (args, n, what) => {
    if (args.length < n) throw new TypeErr(what + " needs " + n + " argument" + (n > 1 ? "s" : ""));
  };

  const pairsError = () => new TypeErr("URLSearchParams needs [name, value] pairs");
  // edit replaces each pair p of the list by f(p) (null drops it), then adds more.
  const edit = (self, f, more) => {
    const st = paramsOf(self), list = [];
    for (let i = 0; i < st.list.length; i++) { const p = f(st.list[i]); if (p !== null) push(list, p); }
    if (more !== undefined) push(list, more);
    st.list = list;
    changed(st);
  };
  const matches = (self, name, value) => {
    const list = paramsOf(self).list, n = toStr(name), v = value === undefined ? undefined : toStr(value), out = [];
    for (let i = 0; i < list.length; i++) if (list[i][0] === n && (v === undefined || list[i][1] === v)) push(out, list[i][1]);
    return out;
  };
  class URLSearchParams {
    constructor(init = "") {
      const st = { list: [], url: null };
      wmSet(paramsState, this, st);
      if (wmHas(paramsState, init)) st.list = sliceArr(paramsOf(init).list);
      else if ((typeof init === "object" && init !== null) || typeof init === "function") {
        if (init[Symbol.iterator] !== undefined && init[Symbol.iterator] !== null) {
          for (const pair of init) {
            if ((typeof pair !== "object" || pair === null) && typeof pair !== "function") throw pairsError();
            const items = [];
            for (const item of pair) push(items, item);
            if (items.length !== 2) throw pairsError();
            push(st.list, [toStr(items[0]), toStr(items[1])]);
          }
        } else {
          const keys = ownKeys(init);
          for (let i = 0; i < keys.length; i++) {
            if (typeof keys[i] === "string" && propertyIsEnumerable(init, keys[i])) push(st.list, [keys[i], toStr(init[keys[i]])]);
          }
        }
      } else {
        const s = toStr(init);
        st.list = parseForm(s[0] === "?" ? sliceStr(s, 1) : s);
      }
    }
    get size() { return paramsOf(this).list.length; }
    append(name, value) {
      needs(arguments, 2, "URLSearchParams.append");
      edit(this, (p) => p, [toStr(name), toStr(value)]);
    }
    delete(name, value = undefined) {
      const n = toStr(name), v = value === undefined ? undefined : toStr(value);
      edit(this, (p) => (p[0] !== n || (v !== undefined && p[1] !== v) ? p : null));
    }
    get(name) {
      needs(arguments, 1, "URLSearchParams.get");
      const found = matches(this, name);
      return found.length > 0 ? found[0] : null;
    }
    getAll(name) { needs(arguments, 1, "URLSearchParams.getAll"); return matches(this, name); }
    has(name, value = undefined) { needs(arguments, 1, "URLSearchParams.has"); return matches(this, name, value).length > 0; }
    set(name, value) {
      needs(arguments, 2, "URLSearchParams.set");
      const n = toStr(name), pair = [n, toStr(value)];
      let found = false;
      edit(this, (p) => (p[0] !== n ? p : found ? null : ((found = true), pair)));
      if (!found) edit(this, (p) => p, pair);
    }
    sort() { // stable: ties keep their order
      const list = paramsOf(this).list, order = [];
      for (let i = 0; i < list.length; i++) push(order, [list[i], i]);
      sortArr(order, (a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
      let k = 0;
      edit(this, () => order[k++][0]);
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== "function") throw new TypeErr("URLSearchParams.forEach needs a function");
      const st = paramsOf(this);
      for (let i = 0; i < st.list.length; i++) apply(callback, thisArg, [st.list[i][1], st.list[i][0], this]);
    }
    *entries() { const st = paramsOf(this); for (let i = 0; i < st.list.length; i++) yield [st.list[i][0], st.list[i][1]]; }
    *keys() { const st = paramsOf(this); for (let i = 0; i < st.list.length; i++) yield st.list[i][0]; }
    *values() { const st = paramsOf(this); for (let i = 0; i < st.list.length; i++) yield st.list[i][1]; }
    toString() { return serializeForm(paramsOf(this).list); }
  }
  hidden(URLSearchParams.prototype, Symbol.iterator, URLSearchParams.prototype.entries);
  tag(URLSearchParams, "URLSearchParams");

  class URL {
    constructor(url, base = undefined) {
      needs(arguments, 1, "URL");
      const r = withBase(url, base);
      if (r === null) throw new TypeErr("Invalid URL");
      const params = new URLSearchParams(r.query === null ? "" : r.query), u = { r, params };
      paramsOf(params).url = u;
      wmSet(urls, this, u);
    }
    static canParse(url, base = undefined) {
      needs(arguments, 1, "URL.canParse");
      return withBase(url, base) !== null;
    }
    static parse(url, base = undefined) {
      needs(arguments, 1, "URL.parse");
      return withBase(url, base) === null ? null : new URL(url, base);
    }
    get href() { return serialize(urlOf(this).r); }
    set href(v) {
      const u = urlOf(this), r = parse(toStr(v), null);
      if (r === null) throw new TypeErr("Invalid URL");
      u.r = r;
      setQuery(u, r.query);
    }
    get origin() {
      let r = urlOf(this).r;
      if (r.scheme === "blob" && r.opaque) {
        const inner = parse(r.path, null);
        if (inner === null || (inner.scheme !== "http" && inner.scheme !== "https")) return "null";
        r = inner;
      }
      if (special[r.scheme] === undefined || r.scheme === "file") return "null";
      return r.scheme + "://" + r.host + (r.port !== null ? ":" + r.port : "");
    }
    get protocol() { return urlOf(this).r.scheme + ":"; }
    set protocol(v) {
      const r = urlOf(this).r, s = clean(toStr(v) + ":"), n = schemeOf(s);
      if (n === 0) return;
      const scheme = toLower(sliceStr(s, 0, n));
      if ((special[scheme] !== undefined) !== (special[r.scheme] !== undefined)) return;
      if (scheme === "file" && (r.user !== "" || r.pass !== "" || r.port !== null)) return;
      if (r.scheme === "file" && r.host === "") return;
      r.scheme = scheme;
      if (r.port === special[scheme]) r.port = null;
    }
    get username() { return urlOf(this).r.user; }
    set username(v) { setCredential(urlOf(this).r, "user", v); }
    get password() { return urlOf(this).r.pass; }
    set password(v) { setCredential(urlOf(this).r, "pass", v); }
    get host() {
      const r = urlOf(this).r;
      return r.host === null ? "" : r.port === null ? r.host : r.host + ":" + r.port;
    }
    set host(v) { setHost(urlOf(this).r, toStr(v), true); }
    get hostname() { const h = urlOf(this).r.host; return h === null ? "" : h; }
    set hostname(v) { setHost(urlOf(this).r, toStr(v), false); }
    get port() { const p = urlOf(this).r.port; return p === null ? "" : p; }
    set port(v) {
      const r = urlOf(this).r, s = clean(toStr(v));
      if (r.host === null || r.host === "" || r.scheme === "file") return;
      if (s === "") r.port = null;
      else setPort(r, s);
    }
    get pathname() { return pathname(urlOf(this).r); }
    set pathname(v) {
      const r = urlOf(this).r;
      if (r.opaque) return;
      r.path = [];
      const s = clean(toStr(v));
      path(s === "" && special[r.scheme] !== undefined ? "/" : s, r);
    }
    get search() { const q = urlOf(this).r.query; return q === null || q === "" ? "" : "?" + q; }
    set search(v) {
      const u = urlOf(this), s = clean(toStr(v));
      if (s === "") { setQuery(u, null); return; }
      setQuery(u, pct(s[0] === "?" ? sliceStr(s, 1) : s, special[u.r.scheme] !== undefined ? SPECIAL_QUERY : QUERY));
    }
    get searchParams() { return urlOf(this).params; }
    get hash() { const f = urlOf(this).r.frag; return f === null || f === "" ? "" : "#" + f; }
    set hash(v) {
      const r = urlOf(this).r, s = clean(toStr(v));
      r.frag = s === "" ? null : pct(s[0] === "#" ? sliceStr(s, 1) : s, FRAGMENT);
    }
    toString() { return serialize(urlOf(this).r); }
    toJSON() { return serialize(urlOf(this).r); }
  }
  const setHost = (r, s, withPort) => {
    if (r.opaque) return;
    const sp = special[r.scheme] !== undefined;
    s = clean(s);
    s = sliceStr(s, 0, authorityEnd(s, sp));
    const [h, p] = splitHostPort(s);
    if (!withPort && p !== null) return;
    if (h === "" && sp && r.scheme !== "file") return;
    if (h === "" && (r.user !== "" || r.pass !== "" || r.port !== null)) return;
    let host = h === "" ? "" : parseHost(h, sp);
    if (host === null) return;
    if (r.scheme === "file" && host === "localhost") host = "";
    r.host = host;
    if (withPort && p !== null && r.scheme !== "file") setPort(r, p);
  };
  const setCredential = (r, k, v) => {
    if (r.host !== null && r.host !== "" && r.scheme !== "file") r[k] = pct(toStr(v), USERINFO);
  };
  // setPort sets the port from the leading digits of s, if any and valid.
  const setPort = (r, s) => {
    let end = 0;
    while (end < s.length && isDigit(charCodeAt(s, end))) end++;
    const p = end === 0 ? undefined : parsePort(sliceStr(s, 0, end), r.scheme);
    if (p !== undefined) r.port = p;
  };
  tag(URL, "URL");
  define("URLSearchParams", URLSearchParams);
  define("URL", URL);

  // structuredClone: HTML's structured serialize then deserialize, in one
  // pass. JSON data, Date, RegExp, Map, Set, ArrayBuffer, typed arrays,
  // DataView, boxed primitives, BigInt, DOMException and errors (name,
  // message, stack, and cause as V8 does) clone, keeping shared references
  // and cycles; other objects become plain objects of their own enumerable
  // string-keyed properties. Functions, symbols and platform or exotic
  // objects (URL, WeakMap, Promise, ...) throw a DataCloneError. The
  // transfer option is ignored: nothing is transferred or detached.
  const MapC = Map, SetC = Set, ArrayC = Array, DateC = Date, RegExpC = RegExp, DataViewC = DataView;
  const mapGetM = uncurry(MapC.prototype.get), mapSetM = uncurry(MapC.prototype.set), mapHas = uncurry(MapC.prototype.has);
  const mapForEach = uncurry(MapC.prototype.forEach), setForEach = uncurry(SetC.prototype.forEach), setAdd = uncurry(SetC.prototype.add);
  const mapSize = getter(MapC.prototype, "size"), setSize = getter(SetC.prototype, "size");
  const getTime = uncurry(DateC.prototype.getTime);
  const reSource = getter(RegExpC.prototype, "source"), reFlags = getter(RegExpC.prototype, "flags");
  const symbolString = uncurry(Symbol.prototype.toString);
  // The valueOf of each boxed primitive type, which throws for any other value.
  const boxes = [Number, String, Boolean, BigInt].map((C) => uncurry(C.prototype.valueOf));
  const symbolValue = uncurry(Symbol.prototype.valueOf);
  const views = create(null);
  for (const name of ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
    "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]) if (typeof g[name] === "function") views[name] = g[name];
  const errors = create(null);
  for (const name of ["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"]) errors[name] = g[name];
  const refused = "|WeakMap|WeakSet|WeakRef|FinalizationRegistry|Promise|SharedArrayBuffer|Generator|AsyncGenerator|URL|URLSearchParams|TextEncoder|TextDecoder|";
  const field = (o, k, value, enumerable) => defineProperty(o, k, { value, writable: true, enumerable, configurable: true });
  const uncloneable = (what) => new DOMExc(what + " could not be cloned.", "DataCloneError");
  const clone = (v, memo) => {
    if (typeof v === "symbol") throw uncloneable(symbolString(v));
    if (typeof v === "function") throw uncloneable("function " + (typeof v.name === "string" && v.name !== "" ? v.name : "(anonymous)"));
    if (typeof v !== "object" || v === null) return v;
    if (mapHas(memo, v)) return mapGetM(memo, v);
    const keep = (out) => { mapSetM(memo, v, out); return out; };
    for (let i = 0; i < boxes.length; i++) if (attempt(boxes[i], v)) return keep(O(boxes[i](v)));
    if (attempt(symbolValue, v)) throw uncloneable("Symbol object");
    if (attempt(getTime, v)) return keep(new DateC(getTime(v)));
    if (v !== RegExpC.prototype && attempt(reSource, v)) return keep(new RegExpC(reSource(v), reFlags(v)));
    if (isBuffer(v)) return keep(abSlice(v, 0));
    if (isView(v)) {
      const name = taTag(v);
      if (name === undefined) return keep(new DataViewC(clone(dvBuffer(v), memo), dvOffset(v), dvLength(v)));
      return keep(new views[name](clone(taBuffer(v), memo), taOffset(v), taLength(v)));
    }
    if (attempt(mapSize, v)) {
      const out = keep(new MapC()), ks = [], vs = [];
      mapForEach(v, (value, key) => { push(ks, key); push(vs, value); });
      for (let i = 0; i < ks.length; i++) mapSetM(out, clone(ks[i], memo), clone(vs[i], memo));
      return out;
    }
    if (attempt(setSize, v)) {
      const out = keep(new SetC()), ks = [];
      setForEach(v, (key) => { push(ks, key); });
      for (let i = 0; i < ks.length; i++) setAdd(out, clone(ks[i], memo));
      return out;
    }
    if (v instanceof DOMExc) return keep(new DOMExc(v.message, v.name));
    const tagName = sliceStr(objectToString(v), 8, -1);
    if (indexOf(refused, "|" + tagName + "|") >= 0) throw uncloneable("#<" + tagName + ">");
    let out;
    if (tagName === "Error") {
      const name = v.name, desc = getOwnDesc(v, "message"), stack = v.stack;
      out = keep(new errors[typeof name === "string" && errors[name] !== undefined ? name : "Error"]());
      if (desc !== undefined && "value" in desc) field(out, "message", toStr(desc.value), false);
      if (typeof stack === "string") field(out, "stack", stack, false);
      const cause = getOwnDesc(v, "cause");
      if (cause !== undefined && "value" in cause) field(out, "cause", clone(cause.value, memo), false);
      return out;
    }
    out = keep(isArray(v) ? new ArrayC(v.length) : {});
    const keys = ownKeys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k === "string" && propertyIsEnumerable(v, k)) field(out, k, clone(v[k], memo), true);
    }
    return out;
  };
  define("structuredClone", {
    structuredClone(value) {
      if (arguments.length === 0) throw new TypeErr("structuredClone needs a value");
      return clone(value, new MapC());
    },
  }.structuredClone);
})();
