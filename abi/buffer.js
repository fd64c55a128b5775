// Buffer, the part of Node's that models reach for (decoding base64 above
// all), evaluated by every engine after web.js: a Uint8Array subclass with
// from/alloc/concat/byteLength/compare, toString and write in utf8, hex,
// base64, base64url, latin1, ascii and utf16le, equals, indexOf, copy,
// slice as a view, toJSON, and the fixed-width read and write methods.
// There is no require("buffer"): Buffer is a global, as in Node. Simplified
// against Node: no pooling (allocUnsafe zero-fills), and error messages
// without Node's ERR_* codes. Everything a later call uses is captured here.
(() => {
  "use strict";
  const g = globalThis;
  const O = Object, defineProperty = O.defineProperty, getPrototypeOf = O.getPrototypeOf;
  const apply = Reflect.apply;
  const TypeErr = TypeError, RangeErr = RangeError;
  const U8 = Uint8Array, AB = ArrayBuffer, DV = DataView;
  const fromCharCode = String.fromCharCode, charCodeAt = String.prototype.charCodeAt, toLower = String.prototype.toLowerCase;
  const join = Array.prototype.join, push = Array.prototype.push, isArray = Array.isArray, isView = AB.isView;
  const floor = Math.floor, min = Math.min, max = Math.max;
  const utf8 = new g.TextEncoder(), encodeUTF8 = g.TextEncoder.prototype.encode;
  const utf8Decoder = new g.TextDecoder(), decodeUTF8 = g.TextDecoder.prototype.decode;
  const TA = getPrototypeOf(U8.prototype);
  const desc = (o, k) => O.getOwnPropertyDescriptor(o, k);
  const taLength = desc(TA, "length").get, taBuffer = desc(TA, "buffer").get;
  const taOffset = desc(TA, "byteOffset").get, taByteLength = desc(TA, "byteLength").get, taTag = desc(TA, Symbol.toStringTag).get;
  const taSet = TA.set, taSubarray = TA.subarray, taFill = TA.fill;
  const abLength = desc(AB.prototype, "byteLength").get;
  const len = (b) => apply(taLength, b, []);
  const isTyped = (v) => isView(v) && apply(taTag, v, []) !== undefined;
  const isAB = (v) => { try { apply(abLength, v, []); return true; } catch (_) { return false; } };
  const u8Of = (v) => isTyped(v) ? new U8(apply(taBuffer, v, []), apply(taOffset, v, []), apply(taByteLength, v, []))
    : new U8(v.buffer, v.byteOffset, v.byteLength); // a DataView

  const CHUNK = 8192;
  const chars = (codes) => { // a string from an array-like of char codes, in chunks
    const n = len(codes);
    if (n <= CHUNK) return apply(fromCharCode, null, codes);
    const parts = [];
    for (let i = 0; i < n; i += CHUNK) apply(push, parts, [apply(fromCharCode, null, apply(taSubarray, codes, [i, min(i + CHUNK, n)]))]);
    return apply(join, parts, [""]);
  };

  const ENCODINGS = { utf8: "utf8", "utf-8": "utf8", hex: "hex", base64: "base64", base64url: "base64url",
    latin1: "latin1", binary: "latin1", ascii: "ascii", utf16le: "utf16le", "utf-16le": "utf16le", ucs2: "utf16le", "ucs-2": "utf16le" };
  const encodingOf = (enc) => {
    if (enc === undefined || enc === null) return "utf8";
    const e = typeof enc === "string" ? ENCODINGS[enc] || ENCODINGS[apply(toLower, enc, [])] : undefined;
    if (e === undefined) throw new TypeErr("Unknown encoding: " + String(enc));
    return e;
  };

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const codesOf = (s) => { const b = new U8(64); for (let i = 0; i < 64; i++) b[i] = apply(charCodeAt, s, [i]); return b; };
  const b64Codes = codesOf(B64), b64urlCodes = codesOf(B64URL);
  // Decoding takes both alphabets and skips anything else, as Node does;
  // it stops at the first "=".
  const b64Value = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) { b64Value[b64Codes[i]] = i; b64Value[b64urlCodes[i]] = i; }
  const hexValue = new Int8Array(128).fill(-1);
  for (let i = 0; i < 6; i++) { hexValue[65 + i] = 10 + i; hexValue[97 + i] = 10 + i; }
  for (let i = 0; i < 10; i++) hexValue[48 + i] = i;

  // bytesOf encodes string s in encoding e into a new Uint8Array.
  const bytesOf = (s, e) => {
    const n = s.length;
    switch (e) {
      case "utf8": return apply(encodeUTF8, utf8, [s]);
      case "latin1": case "ascii": {
        const out = new U8(n);
        for (let i = 0; i < n; i++) out[i] = apply(charCodeAt, s, [i]);
        return out;
      }
      case "utf16le": {
        const out = new U8(n * 2);
        for (let i = 0; i < n; i++) { const c = apply(charCodeAt, s, [i]); out[2 * i] = c; out[2 * i + 1] = c >> 8; }
        return out;
      }
      case "hex": {
        const out = new U8(n >> 1);
        let j = 0;
        for (; j < out.length; j++) {
          const a = apply(charCodeAt, s, [2 * j]), b = apply(charCodeAt, s, [2 * j + 1]);
          const hi = a < 128 ? hexValue[a] : -1, lo = b < 128 ? hexValue[b] : -1;
          if (hi < 0 || lo < 0) break; // Node stops at the first pair that is not hex
          out[j] = hi * 16 + lo;
        }
        return apply(taSubarray, out, [0, j]);
      }
      default: { // base64, base64url
        const out = new U8(floor((n * 3) / 4) + 3);
        let j = 0, acc = 0, bits = 0;
        for (let i = 0; i < n; i++) {
          const c = apply(charCodeAt, s, [i]);
          if (c === 61) break;
          const v = c < 128 ? b64Value[c] : -1;
          if (v < 0) continue;
          acc = ((acc << 6) | v) & 0xffffff; bits += 6;
          if (bits >= 8) { bits -= 8; out[j++] = (acc >> bits) & 255; }
        }
        return apply(taSubarray, out, [0, j]);
      }
    }
  };

  // textOf decodes bytes b (a Uint8Array) in encoding e.
  const textOf = (b, e) => {
    const n = len(b);
    switch (e) {
      case "utf8": return apply(decodeUTF8, utf8Decoder, [b]);
      case "latin1": return chars(b);
      case "ascii": { const c = new U8(n); for (let i = 0; i < n; i++) c[i] = b[i] & 127; return chars(c); }
      case "utf16le": {
        const c = new Uint16Array(n >> 1);
        for (let i = 0; i < c.length; i++) c[i] = b[2 * i] | (b[2 * i + 1] << 8);
        return chars(c);
      }
      case "hex": {
        const c = new Uint16Array(n * 2), digits = "0123456789abcdef";
        for (let i = 0; i < n; i++) { c[2 * i] = apply(charCodeAt, digits, [b[i] >> 4]); c[2 * i + 1] = apply(charCodeAt, digits, [b[i] & 15]); }
        return chars(c);
      }
      default: { // base64 (padded), base64url (unpadded)
        const codes = e === "base64" ? b64Codes : b64urlCodes;
        const c = new U8(Math.ceil(n / 3) * 4);
        let j = 0;
        for (let i = 0; i < n; i += 3) {
          const x = b[i], y = i + 1 < n ? b[i + 1] : 0, z = i + 2 < n ? b[i + 2] : 0;
          c[j++] = codes[x >> 2];
          c[j++] = codes[((x & 3) << 4) | (y >> 4)];
          if (i + 1 < n) c[j++] = codes[((y & 15) << 2) | (z >> 6)]; else if (e === "base64") c[j++] = 61;
          if (i + 2 < n) c[j++] = codes[z & 63]; else if (e === "base64") c[j++] = 61;
        }
        return chars(apply(taSubarray, c, [0, j]));
      }
    }
  };

  // index clamps a relative start or end argument to [0, n], as slice does.
  const index = (v, n, dflt) => {
    if (v === undefined) return dflt;
    let i = floor(Number(v));
    if (i !== i) i = 0;
    return i < 0 ? max(n + i, 0) : min(i, n);
  };
  const sizeOf = (size) => {
    if (typeof size !== "number" || size !== size || size < 0 || size > 0x7fffffff) {
      throw new RangeErr('The "size" argument must be a number from 0 to 2147483647, not ' + String(size));
    }
    return floor(size);
  };
  const needBytes = (v, what) => {
    if (!isView(v)) throw new TypeErr('The "' + what + '" argument must be a Buffer or Uint8Array');
    return u8Of(v);
  };
  const compareBytes = (a, b) => {
    const n = min(len(a), len(b));
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return len(a) === len(b) ? 0 : len(a) < len(b) ? -1 : 1;
  };

  class Buffer extends U8 {
    // new Buffer(string, encoding) as Node's deprecated form; anything else
    // is Uint8Array's constructor (which typed-array methods use to make
    // their results).
    constructor(a, b, c) {
      if (typeof a === "string") {
        const bytes = bytesOf(a, encodingOf(b));
        super(len(bytes));
        apply(taSet, this, [bytes]);
      } else {
        super(...arguments);
      }
    }
    static from(value, encOrOffset, length) {
      if (typeof value === "string") return new Buffer(value, encOrOffset);
      if (isAB(value)) {
        const n = apply(abLength, value, []), off = encOrOffset === undefined ? 0 : floor(Number(encOrOffset)) || 0;
        if (off < 0 || off > n) throw new RangeErr('"offset" is outside of buffer bounds');
        const count = length === undefined ? n - off : floor(Number(length)) || 0;
        if (count < 0 || off + count > n) throw new RangeErr('"length" is outside of buffer bounds');
        return new Buffer(value, off, count); // shares the memory, as Node does
      }
      if (isView(value)) { const src = u8Of(value), out = new Buffer(len(src)); apply(taSet, out, [src]); return out; }
      if (value !== null && typeof value === "object") {
        if (value.type === "Buffer" && isArray(value.data)) return Buffer.from(value.data);
        if (typeof value.length === "number" || typeof value[Symbol.iterator] === "function") {
          const src = U8.from(value), out = new Buffer(len(src));
          apply(taSet, out, [src]);
          return out;
        }
      }
      throw new TypeErr("The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.");
    }
    static alloc(size, fill, encoding) {
      const b = new Buffer(sizeOf(size));
      if (fill !== undefined && fill !== 0) b.fill(fill, 0, len(b), encoding);
      return b;
    }
    static allocUnsafe(size) { return new Buffer(sizeOf(size)); }
    static allocUnsafeSlow(size) { return new Buffer(sizeOf(size)); }
    static isBuffer(v) { return v instanceof Buffer; }
    static isEncoding(enc) { return typeof enc === "string" && (ENCODINGS[enc] || ENCODINGS[apply(toLower, enc, [])]) !== undefined; }
    static byteLength(v, encoding) {
      if (typeof v === "string") return len(bytesOf(v, encodingOf(encoding)));
      if (isView(v)) return u8Of(v).byteLength;
      if (isAB(v)) return apply(abLength, v, []);
      throw new TypeErr('The "string" argument must be a string, a Buffer or an ArrayBuffer');
    }
    static compare(a, b) { return compareBytes(needBytes(a, "buf1"), needBytes(b, "buf2")); }
    static concat(list, totalLength) {
      if (!isArray(list)) throw new TypeErr('The "list" argument must be an array of Buffer or Uint8Array');
      const parts = [];
      let total = 0;
      for (let i = 0; i < list.length; i++) {
        const p = needBytes(list[i], "list[" + i + "]");
        apply(push, parts, [p]);
        total += len(p);
      }
      const n = totalLength === undefined ? total : sizeOf(totalLength);
      const out = new Buffer(n);
      for (let i = 0, at = 0; i < parts.length && at < n; i++) {
        const p = parts[i], take = min(len(p), n - at);
        apply(taSet, out, [take === len(p) ? p : apply(taSubarray, p, [0, take]), at]);
        at += take;
      }
      return out;
    }
    toString(encoding, start, end) {
      const n = len(this), s = index(start, n, 0), e = index(end, n, n);
      return textOf(apply(taSubarray, u8Of(this), [s, max(s, e)]), encodingOf(encoding));
    }
    toLocaleString(encoding, start, end) { return this.toString(encoding, start, end); }
    toJSON() {
      const data = new Array(len(this));
      for (let i = 0; i < data.length; i++) data[i] = this[i];
      return { type: "Buffer", data };
    }
    equals(other) { return compareBytes(u8Of(this), needBytes(other, "otherBuffer")) === 0; }
    compare(target, tStart, tEnd, sStart, sEnd) {
      const t = needBytes(target, "target"), tn = len(t), sn = len(this);
      const a = apply(taSubarray, u8Of(this), [index(sStart, sn, 0), index(sEnd, sn, sn)]);
      return compareBytes(a, apply(taSubarray, t, [index(tStart, tn, 0), index(tEnd, tn, tn)]));
    }
    // slice is a view on the same memory, as in Node (not a copy, as on
    // Uint8Array).
    slice(start, end) { return this.subarray(start, end); }
    write(string, offset, length, encoding) {
      if (typeof offset === "string") { encoding = offset; offset = 0; length = undefined; }
      else if (typeof length === "string") { encoding = length; length = undefined; }
      const n = len(this), off = offset === undefined ? 0 : floor(Number(offset));
      if (!(off >= 0 && off <= n)) throw new RangeErr('The value of "offset" is out of range');
      const room = length === undefined ? n - off : min(max(floor(Number(length)) || 0, 0), n - off);
      const e = encodingOf(encoding);
      let bytes = bytesOf(String(string), e);
      if (len(bytes) > room) {
        // UTF-8 writes whole characters only.
        let cut = room;
        if (e === "utf8") while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
        bytes = apply(taSubarray, bytes, [0, cut]);
      }
      apply(taSet, this, [bytes, off]);
      return len(bytes);
    }
    fill(value, offset, end, encoding) {
      if (typeof offset === "string") { encoding = offset; offset = 0; end = len(this); }
      else if (typeof end === "string") { encoding = end; end = len(this); }
      const n = len(this), s = index(offset, n, 0), e = index(end, n, n);
      if (typeof value !== "string" && !isView(value)) return apply(taFill, this, [Number(value) & 255, s, e]);
      const pattern = typeof value === "string" ? bytesOf(value, encodingOf(encoding)) : u8Of(value);
      if (len(pattern) === 0) return apply(taFill, this, [0, s, e]);
      for (let i = s, j = 0; i < e; i++, j = (j + 1) % len(pattern)) this[i] = pattern[j];
      return this;
    }
    indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); }
    lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); }
    includes(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false) !== -1; }
    copy(target, targetStart, sourceStart, sourceEnd) {
      const t = needBytes(target, "target"), tn = len(t), sn = len(this);
      const ts = index(targetStart, tn, 0), ss = index(sourceStart, sn, 0), se = index(sourceEnd, sn, sn);
      const count = max(min(se - ss, tn - ts), 0);
      if (count > 0) apply(taSet, t, [apply(taSubarray, u8Of(this), [ss, ss + count]), ts]);
      return count;
    }
  }

  // search finds value (a string, bytes, or a byte number) in buf from
  // byteOffset, forwards or (last) backwards.
  const search = (buf, value, byteOffset, encoding, last) => {
    if (typeof byteOffset === "string") { encoding = byteOffset; byteOffset = undefined; }
    const n = len(buf), hay = u8Of(buf);
    let needle;
    if (typeof value === "number") needle = new U8([value & 255]);
    else if (typeof value === "string") needle = bytesOf(value, encodingOf(encoding));
    else if (isView(value)) needle = u8Of(value);
    else throw new TypeErr('The "value" argument must be a string, a number, a Buffer or a Uint8Array');
    const m = len(needle);
    let from = byteOffset === undefined ? (last ? n - m : 0) : floor(Number(byteOffset)) || 0;
    if (from < 0) from = max(n + from, last ? -1 : 0);
    if (m === 0) return last ? min(from, n) : min(from, n);
    const step = last ? -1 : 1;
    for (let i = min(from, n - m); i >= 0 && i <= n - m; i += step) {
      let j = 0;
      while (j < m && hay[i + j] === needle[j]) j++;
      if (j === m) return i;
    }
    return -1;
  };

  // The fixed-width read and write methods, through a DataView.
  const dv = (b) => new DV(apply(taBuffer, b, []), apply(taOffset, b, []), len(b));
  const checkOffset = (b, offset, size) => {
    const off = offset === undefined ? 0 : offset;
    if (typeof off !== "number" || off !== floor(off) || off < 0 || off + size > len(b)) {
      throw new RangeErr('The value of "offset" is out of range: it must be an integer from 0 to ' + (len(b) - size) + ", not " + String(offset));
    }
    return off;
  };
  const widths = [
    ["UInt8", "Uint8", 1], ["Int8", "Int8", 1], ["UInt16", "Uint16", 2], ["Int16", "Int16", 2],
    ["UInt32", "Uint32", 4], ["Int32", "Int32", 4], ["Float", "Float32", 4], ["Double", "Float64", 8],
    ["BigUInt64", "BigUint64", 8], ["BigInt64", "BigInt64", 8],
  ];
  const P = Buffer.prototype;
  for (const [name, view, size] of widths) {
    const get = DV.prototype["get" + view], set = DV.prototype["set" + view];
    const ends = size === 1 ? [""] : ["LE", "BE"];
    for (const end of ends) {
      const little = end === "LE";
      const read = function (offset) { return apply(get, dv(this), [checkOffset(this, offset, size), little]); };
      const write = function (value, offset) {
        const off = checkOffset(this, offset, size);
        apply(set, dv(this), [off, value, little]);
        return off + size;
      };
      for (const [k, f] of [["read" + name + end, read], ["write" + name + end, write]]) {
        defineProperty(P, k, { value: f, writable: true, configurable: true });
        // Node's lower-case aliases: readUint8, writeBigUint64LE, ...
        if (name.indexOf("UInt") >= 0) defineProperty(P, k.replace("UInt", "Uint"), { value: f, writable: true, configurable: true });
      }
    }
  }
  defineProperty(Buffer, "poolSize", { value: 8192, writable: true, enumerable: true });
  defineProperty(g, "Buffer", { value: Buffer, writable: true, enumerable: false, configurable: true });
})();
