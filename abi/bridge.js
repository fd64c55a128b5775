// The engine-level bridge, evaluated once into every template image (and
// into the goja oracle). It captures the engine's two host functions, removes
// them from globalThis, and returns the functions the engine itself calls.
// It leaves one global, __cm_bridge = { request, emit, encode, fill }, for
// the environment scripts and a host prelude; the prelude deletes it.
// Everything here is hardened against guest code that later replaces
// built-ins: it keeps its own references.
(() => {
  "use strict";
  const g = globalThis;
  const hostRequest = g.__cm_host_request;
  const hostEmit = g.__cm_host_emit;
  delete g.__cm_host_request;
  delete g.__cm_host_emit;

  const P = Promise;
  const E = Error;
  const str = String;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const imul = Math.imul;
  const objectToString = Object.prototype.toString;
  const apply = Reflect.apply;

  const pending = Object.create(null);

  const request = (op, payload) => {
    const ticket = hostRequest(str(op), str(payload));
    return new P((resolve, reject) => {
      pending[ticket] = [resolve, reject];
    });
  };
  const emit = (kind, payload) => {
    hostEmit(kind === "json" ? 1 : 0, str(payload));
  };

  // settle(ticket, rejected, value): value is JSON text, or a message.
  const settle = (ticket, rejected, value) => {
    const p = pending[ticket];
    if (p === undefined) return false;
    delete pending[ticket];
    if (rejected) p[1](new E(value));
    else p[0](parse(value));
    return true;
  };

  // encode is the JSON value rule: undefined becomes null; an Error becomes
  // {name, message}; what JSON cannot carry becomes a string.
  const encode = (v) => {
    if (v === undefined) return "null";
    try {
      if (v instanceof E) return stringify({ name: str(v.name), message: str(v.message) });
      const s = stringify(v);
      if (s !== undefined) return s;
    } catch (_) {}
    try {
      return stringify(str(v));
    } catch (_) {}
    try {
      return stringify(apply(objectToString, v, []));
    } catch (_) {}
    return '"[object Unknown]"';
  };

  // describe turns a thrown value into {name, message, stack} JSON.
  const describe = (e) => {
    let name = "", message = "", stack = "";
    try {
      if (e !== null && (typeof e === "object" || typeof e === "function") && "message" in e) {
        try { name = str(e.name); } catch (_) {}
        try { message = str(e.message); } catch (_) {}
        try { stack = e.stack === undefined ? "" : str(e.stack); } catch (_) {}
      } else if (typeof e === "unknown") {
        // QuickJS's "no exception" marker, thrown by a builtin that ran out
        // of heap without raising the error (see normalize below).
        name = "InternalError";
        message = "out of memory";
      } else if (typeof e === "string") {
        message = e;
      } else {
        message = encode(e);
      }
    } catch (_) {
      message = "unprintable exception";
    }
    return stringify({ name, message, stack });
  };

  // Math.random lives in the image, so every image shares its state: the
  // engine reseeds this xoshiro128** on every reset and restore.
  let s0 = 0x9e3779b9, s1 = 0x243f6a88, s2 = 0xb7e15162, s3 = 0x5bf03635;
  const rotl = (x, k) => (x << k) | (x >>> (32 - k));
  const next = () => {
    const r = imul(rotl(imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11);
    return r;
  };
  const random = () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;

  // crypto.getRandomValues draws from ChaCha20 keyed by 256 bits the engine
  // supplies on every reset and restore (from its own CSPRNG), never from the
  // template's fixed state, and apart from Math.random's seed (its state can
  // be read back from its output): two cells never share a stream, and a
  // restored cell does not repeat the bytes its snapshot would have given.
  const key = new Uint32Array(8), block = new Uint32Array(16), x = new Uint32Array(16);
  let counter = 0, used = 64;
  const quarter = (a, b, c, d) => {
    x[a] = (x[a] + x[b]) | 0; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] = (x[c] + x[d]) | 0; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] = (x[a] + x[b]) | 0; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] = (x[c] + x[d]) | 0; x[b] = rotl(x[b] ^ x[c], 7);
  };
  const refill = () => {
    block[0] = 0x61707865; block[1] = 0x3320646e; block[2] = 0x79622d32; block[3] = 0x6b206574;
    for (let i = 0; i < 8; i++) block[4 + i] = key[i];
    block[12] = counter++; block[13] = 0; block[14] = 0; block[15] = 0;
    for (let i = 0; i < 16; i++) x[i] = block[i];
    for (let i = 0; i < 10; i++) {
      quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15);
      quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) block[i] = (x[i] + block[i]) | 0;
    used = 0;
  };
  // fill writes random bytes into a Uint8Array.
  const fill = (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      if (used === 64) refill();
      bytes[i] = block[used >> 2] >>> ((used & 3) * 8);
      used++;
    }
    return bytes;
  };
  const reseed = (a, b, c, d, k0, k1, k2, k3, k4, k5, k6, k7) => {
    s0 = a | 0; s1 = b | 0; s2 = c | 0; s3 = d | 0;
    if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
    key[0] = k0; key[1] = k1; key[2] = k2; key[3] = k3; key[4] = k4; key[5] = k5; key[6] = k6; key[7] = k7;
    counter = 0; used = 64;
  };
  Object.defineProperty(Math, "random", { value: random, writable: true, configurable: true });

  // QuickJS's generic Array methods loop over `length` in C without polling
  // the interrupt handler, so one call on a huge sparse array or array-like
  // (new Array(1e9).join("")) could run for minutes past any deadline. A
  // dense array that long cannot fit the heap limit; refuse the rest.
  const maxLength = 16777216;
  const RangeErr = RangeError;
  const arrayProto = Array.prototype;
  for (const name of ["join", "toString", "toLocaleString", "indexOf", "lastIndexOf", "includes",
    "forEach", "map", "filter", "some", "every", "find", "findIndex", "findLast", "findLastIndex",
    "reduce", "reduceRight", "fill", "copyWithin", "reverse", "sort", "toSorted", "toReversed",
    "toSpliced", "with", "slice", "splice", "shift", "unshift", "flat", "flatMap", "concat"]) {
    const original = arrayProto[name];
    if (typeof original !== "function") continue;
    const guarded = {
      [name](...args) {
        const length = this === null || this === undefined ? 0 : this.length;
        if (length > maxLength) {
          throw new RangeErr("Array.prototype." + name + " on a length of " + length + " exceeds the sandbox's limit of " + maxLength);
        }
        return apply(original, this, args);
      },
    }[name];
    Object.defineProperty(guarded, "length", { value: original.length });
    Object.defineProperty(arrayProto, name, { value: guarded, writable: true, configurable: true });
  }

  // String.prototype.normalize, stopped by the heap limit, returns an
  // exception without raising one: the guest catches QuickJS's "no
  // exception" marker (typeof "unknown", printed "[uninitialized]") instead
  // of the heap limit's error. Raise the real one, which no guest catches:
  // an ArrayBuffer larger than any heap limit.
  const stringProto = String.prototype, normalize = stringProto.normalize, Buffer = ArrayBuffer;
  const guardedNormalize = {
    normalize(...args) {
      try {
        return apply(normalize, this, args);
      } catch (e) {
        if (typeof e === "unknown") new Buffer(0x7fffffff);
        throw e;
      }
    },
  }.normalize;
  Object.defineProperty(stringProto, "normalize", { value: guardedNormalize, writable: true, configurable: true });

  g.__cm_bridge = { request, emit, encode, fill };
  return { settle, encode, describe, reseed };
})()
