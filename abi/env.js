// The host-backed part of the guest environment, evaluated by every engine
// after web.js: timers, store/load, crypto, and the network globals that only
// say how to reach the outside. Each talks to the host through one bridge
// request op (see bridgeabi.wit): timer, timer_clear, store, load.
(() => {
  "use strict";
  const g = globalThis;
  const { request, emit, encode, fill } = g.__cm_bridge;
  const stringify = JSON.stringify;
  const apply = Reflect.apply;
  const TypeErr = TypeError;
  const MapCtor = Map;
  const mapGet = MapCtor.prototype.get, mapSet = MapCtor.prototype.set, mapDelete = MapCtor.prototype.delete;
  const str = String;
  const num = Number;
  const floor = Math.floor;
  const thenOf = Promise.prototype.then;
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });

  // Timers. Each pending timer is one host request ("timer", {id, ms}) that
  // the host settles when it is due, so a pending timer is pending work: a
  // short one fires inside exec, a long one parks the run for wait. The
  // callbacks live here, in the VM, so they survive a snapshot with it.
  const timers = new MapCtor();
  let lastID = 0;
  const delay = (ms) => {
    const n = floor(num(ms));
    return n > 0 && n <= 2147483647 ? n : 0; // like Node: NaN, negative and huge mean now
  };
  const report = (e) => {
    let line = "";
    try {
      line = e !== null && typeof e === "object" && "message" in e ? str(e.name) + ": " + str(e.message) : encode(e);
    } catch (_) {
      line = "unprintable exception";
    }
    try { emit("text", "Uncaught " + line + " (in a timer callback)"); } catch (_) {}
  };
  const arm = (id, t) => {
    apply(thenOf, request("timer", stringify({ id, ms: t.ms })), [() => fire(id, t), () => {}]);
  };
  const fire = (id, t) => {
    if (apply(mapGet, timers, [id]) !== t) return; // cleared, or replaced
    if (t.repeat) {
      try { arm(id, t); } catch (e) { apply(mapDelete, timers, [id]); report(e); }
    } else {
      apply(mapDelete, timers, [id]);
    }
    try { apply(t.fn, undefined, t.args); } catch (e) { report(e); }
  };
  const start = (name, repeat) => (fn, ms, ...args) => {
    if (typeof fn !== "function") throw new TypeErr(name + " needs a function as its first argument");
    const id = ++lastID;
    const t = { fn, args, ms: delay(ms), repeat };
    arm(id, t); // first: a host that refuses the timer throws here
    apply(mapSet, timers, [id, t]);
    return id;
  };
  const clear = (id) => {
    const n = num(id);
    if (apply(mapGet, timers, [n]) === undefined) return;
    apply(mapDelete, timers, [n]);
    request("timer_clear", stringify({ id: n })); // settles at once; nothing to await
  };
  define("setTimeout", start("setTimeout", false));
  define("setInterval", start("setInterval", true));
  define("setImmediate", (fn, ...args) => start("setImmediate", false)(fn, 0, ...args));
  define("clearTimeout", clear);
  define("clearInterval", clear);
  define("clearImmediate", clear);

  // store/load keep JSON values per session across cells; the host holds
  // them (and their bounds), so a value is current even across concurrent
  // cells of one session.
  const encodeURI = encodeURIComponent;
  const checkKey = (key) => {
    if (typeof key !== "string" || key === "" || key.length > 256) {
      throw new TypeErr("store and load keys are non-empty strings of at most 256 characters");
    }
    // A lone surrogate would reach the host as U+FFFD, and two keys as one.
    try { encodeURI(key); } catch (_) {
      throw new TypeErr("store and load keys must be well-formed text (no lone surrogates)");
    }
  };
  define("store", (key, value) => {
    checkKey(key);
    let json;
    try {
      json = value === undefined ? "" : stringify(value);
    } catch (e) {
      throw new TypeErr("store needs a JSON value: " + str(e && e.message));
    }
    if (json === undefined) throw new TypeErr("store needs a JSON value, not a " + typeof value);
    // undefined deletes the key.
    const payload = json === "" ? stringify({ key }) : '{"key":' + stringify(key) + ',"value":' + json + "}";
    return apply(thenOf, request("store", payload), [() => undefined]);
  });
  define("load", (key) => {
    checkKey(key);
    return apply(thenOf, request("load", stringify({ key })), [(r) => r.length === 0 ? undefined : r[0]]);
  });

  // crypto draws from the bridge's per-cell ChaCha20 stream.
  const U8 = Uint8Array;
  // The typed array's own accessors, captured: a guest's own byteLength
  // property must not pass the size bound.
  const typedProto = Object.getPrototypeOf(U8.prototype);
  const accessor = (name) => Object.getOwnPropertyDescriptor(typedProto, name).get;
  const bufferOf = accessor("buffer"), offsetOf = accessor("byteOffset"), lengthOf = accessor("byteLength");
  const tagOf = accessor(Symbol.toStringTag);
  const hex = (b) => (b < 16 ? "0" : "") + b.toString(16);
  const crypto = Object.create(null);
  const integerArrays = { Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1, Int16Array: 1, Uint16Array: 1,
    Int32Array: 1, Uint32Array: 1, BigInt64Array: 1, BigUint64Array: 1 };
  crypto.getRandomValues = (view) => {
    const tag = typeof view === "object" && view !== null ? apply(tagOf, view, []) : undefined;
    if (integerArrays[tag] !== 1) {
      throw new TypeErr("crypto.getRandomValues needs an integer typed array");
    }
    const n = apply(lengthOf, view, []);
    if (n > 65536) {
      throw new RangeError("crypto.getRandomValues takes at most 65536 bytes");
    }
    fill(new U8(apply(bufferOf, view, []), apply(offsetOf, view, []), n));
    return view;
  };
  crypto.randomUUID = () => {
    const b = fill(new U8(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let s = "";
    for (let i = 0; i < 16; i++) s += (i === 4 || i === 6 || i === 8 || i === 10 ? "-" : "") + hex(b[i]);
    return s;
  };
  define("crypto", Object.freeze(crypto));

  // There is no network in a cell: these exist only to say where to go.
  const offline = (name) => name + " is not available in code mode: a cell has no network access. " +
    "Reach services through tools instead: find one with tools.search(query) or MCP.$search(query), " +
    "then call it (tools.<name>(input), MCP.<server>.<tool>(input)).";
  define("fetch", () => Promise.reject(new TypeErr(offline("fetch"))));
  for (const name of ["XMLHttpRequest", "WebSocket", "EventSource"]) {
    define(name, function () { throw new TypeErr(offline(name)); });
  }
})();
