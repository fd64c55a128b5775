// console, evaluated by every engine after web.js: each call appends one
// text output item through the bridge's emit, formatted as Node's console
// prints data (util.inspect's defaults: depth 2, 100 items, breakLength 80,
// compact 3). log, dir, table, count, time* and group print bare; info,
// warn, error, debug (and trace, assert) get a level prefix like "[warn] ".
//
// It never runs guest code: accessors print as [Getter]/[Setter] and are not
// called, and neither are toString, valueOf, Symbol.toPrimitive, toJSON
// (except under %j, which is JSON.stringify) or inspect hooks. JavaScript
// cannot see through a Proxy, so a Proxy's traps do run; an object whose
// reading throws prints as [Uninspectable]. The work is bounded: 100 items
// or keys per object, 10000 characters per nested string, and at most
// 1 MiB of text per call, past which the line is cut with a marker.
// Built-ins are captured here: guest code that replaces them later changes
// nothing.
//
// Simplified against Node: %o is %O with depth 4 (no hidden properties);
// %s shows an object as inspect does at depth 0, without calling its
// toString; %d, %i and %f show an object that is not a Number or Date as
// NaN; a Symbol.toStringTag getter is not read; a Promise shows as
// Promise { <pending> } whatever its state; Map and Set iterators show as
// Object [Map Iterator] {}; a chain without a constructor shows as
// [Object: null prototype]; objects list at most 100 keys; a run of more
// than 65536 holes in an array ends the listing with "... N more items";
// extra (non-index) properties are listed only on arrays of up to 1000
// items; stack frames are the engine's own; trace prints no frames; table
// measures widths in code units and draws at most 1000 rows.
(() => {
  "use strict";
  const g = globalThis;
  const { emit } = g.__cm_bridge;
  const apply = Reflect.apply;
  const uncurry = Function.prototype.bind.bind(Function.prototype.call); // uncurry(f)(self, ...args)
  const O = Object;
  const keysOf = O.keys, symbolsOf = O.getOwnPropertySymbols, own = O.getOwnPropertyDescriptor, protoOf = O.getPrototypeOf;
  const hasOwn = uncurry(O.prototype.hasOwnProperty);
  const isArray = Array.isArray, str = String, stringify = JSON.stringify, toInt = parseInt, toFloat = parseFloat, num = Number;
  const min = Math.min, max = Math.max, sqrt = Math.sqrt, round = Math.round, floor = Math.floor;
  const perf = g.performance, perfNow = perf && typeof perf.now === "function" ? uncurry(perf.now) : null, dateNow = Date.now;
  const now = () => (perfNow ? perfNow(perf) : dateNow());
  const SP = String.prototype;
  const slice = uncurry(SP.slice), indexOf = uncurry(SP.indexOf), code = uncurry(SP.charCodeAt), repeat = uncurry(SP.repeat);
  const toRadix = uncurry(Number.prototype.toString), toFixed = uncurry(Number.prototype.toFixed);
  const fnSource = uncurry(Function.prototype.toString);
  const getter = (o, k) => own(o, k).get;
  const TA = protoOf(Uint8Array.prototype);
  const sTag = Symbol.toStringTag;
  const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;
  const mapNext = protoOf(new Map().entries()).next, setNext = protoOf(new Set().values()).next;
  const stackGetter = (own(Error.prototype, "stack") || {}).get;
  // The built-in prototypes an object's chain is matched against, with the
  // brand check that confirms the kind (and gives its size or value).
  const kinds = [
    [Map.prototype, "map", getter(Map.prototype, "size")], [Set.prototype, "set", getter(Set.prototype, "size")],
    [Date.prototype, "date", Date.prototype.getTime], [RegExp.prototype, "regexp", getter(RegExp.prototype, "source")],
    [Error.prototype, "error"], [Promise.prototype, "promise"], [TA, "typed", getter(TA, "length")],
    [ArrayBuffer.prototype, "buffer", getter(ArrayBuffer.prototype, "byteLength")],
    [DataView.prototype, "view", getter(DataView.prototype, "byteLength")],
    [WeakMap.prototype, "WeakMap", WeakMap.prototype.has], [WeakSet.prototype, "WeakSet", WeakSet.prototype.has],
    [Number.prototype, "Number", Number.prototype.valueOf], [String.prototype, "String", String.prototype.valueOf],
    [Boolean.prototype, "Boolean", Boolean.prototype.valueOf], [BigInt.prototype, "BigInt", BigInt.prototype.valueOf],
    [Symbol.prototype, "Symbol", Symbol.prototype.valueOf],
  ];
  const dateISO = Date.prototype.toISOString, reString = RegExp.prototype.toString;
  const dvOffset = getter(DataView.prototype, "byteOffset"), dvBuffer = getter(DataView.prototype, "buffer");
  const U8 = Uint8Array;
  const HEX = "0123456789ABCDEF";
  const CAP = 1048576, ITEMS = 100, STRING = 10000, HOLES = 65536, EXTRAS = 1000, WIDTH = 80;
  let left = CAP; // characters the current call may still produce
  let hidden = 0; // keys keysIn left out

  const starts = (s, p) => slice(s, 0, p.length) === p;
  const join = (list, sep) => {
    let s = "";
    for (let i = 0; i < list.length; i++) s += (i ? sep : "") + list[i];
    return s;
  };
  const replaceAll = (s, from, to) => {
    let out = "", at = 0;
    for (let i = indexOf(s, from); i !== -1; i = indexOf(s, from, at)) { out += slice(s, at, i) + to; at = i + from.length; }
    return at ? out + slice(s, at) : s;
  };
  const plural = (n, word) => n + " " + word + (n > 1 ? "s" : "");
  const more = (n) => "... " + plural(n, "more item");
  const data = (d) => d !== undefined && hasOwn(d, "value");
  // peek reads a data property along the prototype chain without calling
  // any getter; an accessor reads as undefined.
  const peek = (o, k) => {
    for (let n = 0; o !== null && n < 1000; n++, o = protoOf(o)) {
      const d = own(o, k);
      if (d !== undefined) return data(d) ? d.value : undefined;
    }
    return undefined;
  };
  const fnName = (f) => { const d = own(f, "name"); return data(d) && typeof d.value === "string" ? d.value : ""; };
  // text turns a primitive into a string; an object is not asked.
  const text = (v) => typeof v === "symbol" ? str(v) : typeof v === "object" || typeof v === "function" ? (v === null ? "null" : "[object]") : "" + v;

  // Strings nested in values are quoted and escaped as Node does.
  const special = /[\x00-\x1f'\\\x7f-\x9f\ud800-\udfff]/g, exec = uncurry(RegExp.prototype.exec);
  const quote = (s) => {
    let q = 39;
    if (indexOf(s, "'") !== -1) {
      if (indexOf(s, '"') === -1) q = 34;
      else if (indexOf(s, "`") === -1 && indexOf(s, "${") === -1) q = 96;
    }
    let out = "", at = 0;
    for (let i = 0; i < s.length; i++) {
      special.lastIndex = i; // skip to the next character that may need escaping
      const m = exec(special, s);
      if (m === null) break;
      i = special.lastIndex - 1;
      const c = code(s, i);
      let e = "";
      if (c === q || c === 92) e = c === 92 ? "\\\\" : "\\'";
      else if (c < 32 || (c > 126 && c < 160)) {
        e = c === 8 ? "\\b" : c === 9 ? "\\t" : c === 10 ? "\\n" : c === 12 ? "\\f" : c === 13 ? "\\r" : "\\x" + HEX[c >> 4] + HEX[c & 15];
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const d = code(s, i + 1);
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
        e = "\\u" + toRadix(c, 16);
      } else continue;
      out += slice(s, at, i) + e;
      at = i + 1;
    }
    const Q = q === 39 ? "'" : q === 34 ? '"' : "`";
    return Q + (at ? out + slice(s, at) : s) + Q;
  };
  const ident = (k) => {
    if (k === "") return false;
    for (let i = 0; i < k.length; i++) {
      const c = code(k, i);
      if (!(c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (i > 0 && c >= 48 && c <= 57))) return false;
    }
    return true;
  };
  const number = (n) => (n === 0 && 1 / n < 0 ? "-0" : "" + n);
  const prim = (ctx, v) => {
    let s;
    if (typeof v === "string") {
      let tail = "";
      if (v.length > STRING) { tail = "... " + plural(v.length - STRING, "more character"); v = slice(v, 0, STRING); }
      if (v.length > 16 && v.length > WIDTH - ctx.indent - 4 && indexOf(v, "\n") !== -1 && indexOf(v, "\n") < v.length - 1) {
        const lines = [];
        let at = 0;
        for (let i = indexOf(v, "\n"); i !== -1 && i < v.length - 1; i = indexOf(v, "\n", at)) { lines[lines.length] = quote(slice(v, at, i + 1)); at = i + 1; }
        lines[lines.length] = quote(slice(v, at));
        s = join(lines, " +\n" + repeat(" ", ctx.indent + 2)) + tail;
      } else s = quote(v) + tail;
    } else if (typeof v === "number") s = number(v);
    else if (typeof v === "bigint") s = v + "n";
    else s = text(v);
    left -= s.length;
    return s;
  };

  // The shape of an object: constructor name (null when the chain has none),
  // Symbol.toStringTag (a data property not shown as a key), and kind.
  const shape = (v) => {
    let ctor, tag = "", tagDone = false, kind = "", brand;
    for (let o = v, n = 0; o !== null && n < 1000; n++, o = protoOf(o)) {
      if (ctor === undefined) {
        const d = own(o, "constructor");
        if (data(d) && typeof d.value === "function") {
          const name = fnName(d.value), p = own(d.value, "prototype");
          if (name !== "" && data(p) && p.value === o) ctor = name;
        }
      }
      if (!tagDone) {
        const d = own(o, sTag);
        if (d !== undefined) {
          tagDone = true;
          if (data(d) && typeof d.value === "string" && !(o === v && d.enumerable)) tag = d.value;
        }
      }
      for (let i = 0; kind === "" && i < kinds.length; i++) if (kinds[i][0] === o) { kind = kinds[i][1]; brand = kinds[i][2]; }
    }
    let val;
    if (brand !== undefined) {
      try { val = apply(brand, v, kind === "WeakMap" || kind === "WeakSet" ? [{}] : []); } catch (_) { kind = ""; }
    }
    return [ctor === undefined ? null : ctor, tag, kind, val];
  };
  const prefix = (ctor, tag, fallback, size = "") => {
    if (ctor === null) return "[" + fallback + size + ": null prototype] " + (tag !== "" && tag !== fallback ? "[" + tag + "] " : "");
    return ctor + size + " " + (tag !== "" && tag !== ctor ? "[" + tag + "] " : "");
  };
  // keys are the own enumerable string and symbol keys, without array indices
  // when skip (a length) is given.
  // Past ITEMS of them, only their count is kept, in hidden.
  const keysIn = (v, skip) => {
    const out = [], ks = keysOf(v);
    let i = 0;
    for (; i < ks.length && out.length <= ITEMS; i++) {
      const k = ks[i], n = toInt(k, 10);
      if (skip === undefined || !(k === "" + n && n >= 0 && n < skip)) out[out.length] = k;
    }
    hidden = ks.length - i;
    const ss = symbolsOf(v);
    for (let i = 0; i < ss.length; i++) { const d = own(v, ss[i]); if (d !== undefined && d.enumerable) out[out.length] = ss[i]; }
    return out;
  };

  const fmt = (ctx, v, rt) => {
    if (v === null || (typeof v !== "object" && typeof v !== "function")) return prim(ctx, v);
    for (let i = 0; i < ctx.seen.length; i++) {
      if (ctx.seen[i] !== v) continue;
      let index = 0;
      for (let j = 0; j < ctx.refs.length; j++) if (ctx.refs[j] === v) index = j + 1;
      if (index === 0) { ctx.refs[ctx.refs.length] = v; index = ctx.refs.length; }
      return "[Circular *" + index + "]";
    }
    const indent = ctx.indent, depth = ctx.seen.length;
    try {
      return raw(ctx, v, rt);
    } catch (_) {
      ctx.indent = indent;
      ctx.seen.length = depth;
      return "[Uninspectable]";
    }
  };

  // entry formats one property: a value of an array (bare) or key: value.
  const entry = (ctx, v, key, rt, bare) => {
    const d = own(v, key);
    let s = "undefined";
    if (d !== undefined && !data(d)) s = d.get !== undefined ? (d.set !== undefined ? "[Getter/Setter]" : "[Getter]") : d.set !== undefined ? "[Setter]" : s;
    else if (d !== undefined) { ctx.indent += 2; s = fmt(ctx, d.value, rt); ctx.indent -= 2; }
    if (bare) return s;
    const name = typeof key === "symbol" ? "[" + str(key) + "]" : key === "__proto__" ? "['__proto__']"
      : d !== undefined && !d.enumerable ? "[" + key + "]" : ident(key) ? key : quote(key);
    return name + ": " + s;
  };
  const named = (ctx, name, v, rt) => { ctx.indent += 2; const s = fmt(ctx, v, rt); ctx.indent -= 2; return name + ": " + s; };

  const arrayItems = (ctx, v, len, rt) => {
    const out = [], cap = min(ITEMS, len);
    let i = 0;
    while (i < len && out.length < cap && left > 0) {
      if (own(v, i) !== undefined) { out[out.length] = entry(ctx, v, i, rt, true); i++; continue; }
      let j = i + 1;
      while (j < len && j - i < HOLES && own(v, j) === undefined) j++;
      if (j < len && j - i >= HOLES) break;
      out[out.length] = "<" + plural(j - i, "empty item") + ">";
      i = j;
    }
    if (i < len) out[out.length] = more(len - i);
    return out;
  };
  const iterItems = (ctx, v, size, rt, isMap) => {
    const out = [], it = apply(isMap ? mapEntries : setValues, v, []), n = min(ITEMS, size);
    ctx.indent += 2;
    let i = 0;
    for (; i < n && left > 0; i++) {
      const r = apply(isMap ? mapNext : setNext, it, []);
      if (r.done) break;
      out[out.length] = isMap ? fmt(ctx, r.value[0], rt) + " => " + fmt(ctx, r.value[1], rt) : fmt(ctx, r.value, rt);
    }
    ctx.indent -= 2;
    if (i < size) out[out.length] = more(size - i);
    return out;
  };
  const typedItems = (v, len) => {
    const out = [], n = min(ITEMS, len);
    for (let i = 0; i < n; i++) out[i] = typeof v[i] === "bigint" ? v[i] + "n" : number(v[i]);
    if (n < len) out[n] = more(len - n);
    return out;
  };
  const bytes = (b, len) => {
    const u = new U8(b, 0, min(ITEMS, len));
    let s = "";
    for (let i = 0; i < u.length; i++) s += (i ? " " : "") + (u[i] < 16 ? "0" : "") + toRadix(u[i], 16);
    return "[Uint8Contents]: <" + s + (len > ITEMS ? " ... " + plural(len - ITEMS, "more byte") : "") + ">";
  };

  const source = (f) => { try { return fnSource(f); } catch (_) { return "function () { [native code] }"; } };
  const fnBase = (v, ctor, tag) => {
    const src = source(v);
    const c = code(src, 5);
    if (starts(src, "class") && (c === 32 || c === 123 || c === 9 || c === 10)) {
      let base = "class " + (fnName(v) || "(anonymous)");
      if (ctor !== "Function" && ctor !== null) base += " [" + ctor + "]";
      if (tag !== "" && ctor !== tag) base += " [" + tag + "]";
      const parent = protoOf(v);
      if (ctor === null) base += " extends [null prototype]";
      else if (parent !== null && (typeof parent === "function") && fnName(parent) !== "") base += " extends " + fnName(parent);
      return "[" + base + "]";
    }
    const type = ctor === "AsyncFunction" || ctor === "GeneratorFunction" || ctor === "AsyncGeneratorFunction" ? ctor : "Function";
    const name = fnName(v);
    let base = "[" + type + (ctor === null ? " (null prototype)" : "") + (name === "" ? " (anonymous)" : ": " + name) + "]";
    if (ctor !== type && ctor !== null) base += " " + ctor;
    if (tag !== "" && ctor !== tag) base += " [" + tag + "]";
    return base;
  };

  // errorBase is the error's stack (with the "Name: message" line the
  // engine may leave out, and frames indented as Node's), or [Name: message]
  // when it has no frames; it drops keys the stack already shows.
  const errorBase = (ctx, v, ctor, tag, keys) => {
    const n = peek(v, "name"), m = peek(v, "message");
    const name = n === undefined || n === null ? "Error" : text(n), msg = m === undefined ? "" : text(m);
    const head = name === "" ? msg : msg === "" ? name : name + ": " + msg;
    let stack = "";
    for (let o = v, i = 0; o !== null && i < 1000; i++, o = protoOf(o)) {
      const d = own(o, "stack");
      if (d === undefined) continue;
      const s = data(d) ? d.value : d.get !== undefined && d.get === stackGetter ? apply(stackGetter, v, []) : undefined;
      if (typeof s === "string") stack = s;
      break;
    }
    if (stack === "") stack = head;
    else {
      const ls = [];
      for (let at = 0, nl; at <= stack.length; at = nl + 1) {
        nl = indexOf(stack, "\n", at);
        if (nl === -1) nl = stack.length;
        ls[ls.length] = slice(stack, at, nl);
      }
      let n = ls.length, out = "";
      while (n > 0 && ls[n - 1] === "") n--;
      for (let i = 0; i < n; i++) {
        let line = ls[i], k = 0;
        while (code(line, k) === 32 || code(line, k) === 9) k++;
        const frame = k > 0 && slice(line, k, k + 3) === "at ";
        if (frame) line = "    " + slice(line, k);
        if (i === 0 && frame) out = head + "\n";
        out += (i ? "\n" : "") + line;
      }
      stack = out;
    }
    for (let x = 0; x < 3; x++) {
      const k = x === 0 ? "name" : x === 1 ? "message" : "stack";
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== k) continue;
        const d = own(v, k);
        if (data(d) && indexOf(stack, text(d.value)) !== -1) { for (let j = i; j < keys.length - 1; j++) keys[j] = keys[j + 1]; keys.length--; }
        break;
      }
    }
    for (let x = 0; x < 2; x++) {
      const k = x === 0 ? "cause" : "errors", d = own(v, k);
      let has = false;
      for (let i = 0; i < keys.length; i++) if (keys[i] === k) has = true;
      if (data(d) && !has && (k === "cause" || isArray(d.value))) keys[keys.length] = k;
    }
    const len = name.length;
    if (ctor !== null && slice(name, -5) === "Error" && starts(stack, name) && (stack.length === len || code(stack, len) === 58 || code(stack, len) === 10)) {
      const p = slice(prefix(ctor, tag, "Error"), 0, -1);
      if (name !== p) stack = indexOf(p, name) !== -1 ? p + slice(stack, len) : p + " [" + name + "]" + slice(stack, len);
    }
    let pos = (msg && indexOf(stack, msg)) || -1;
    if (pos !== -1) pos += msg.length;
    if (indexOf(stack, "\n    at", pos) === -1) stack = "[" + stack + "]";
    if (ctx.indent !== 0) stack = replaceAll(stack, "\n", "\n" + repeat(" ", ctx.indent));
    return stack;
  };

  const raw = (ctx, v, rt) => {
    const sh = shape(v), ctor = sh[0], tag = sh[1], val = sh[3];
    hidden = 0;
    let kind = sh[2], keys, base = "", open = "{", close = "}", arrayish = false, items = () => [], more0 = 0;
    if (isArray(v)) {
      const d = own(v, "length"), len = data(d) ? d.value : 0;
      keys = len <= EXTRAS ? keysIn(v, len) : [];
      open = (ctor !== "Array" || tag !== "" ? prefix(ctor, tag, "Array", "(" + len + ")") : "") + "[";
      close = "]";
      if (len === 0 && keys.length === 0) return open + "]";
      arrayish = true;
      items = () => arrayItems(ctx, v, len, rt);
    } else if (kind === "map" || kind === "set") {
      const p = prefix(ctor, tag, kind === "map" ? "Map" : "Set", "(" + val + ")");
      keys = keysIn(v);
      if (val === 0 && keys.length === 0) return p + "{}";
      open = p + "{";
      items = () => iterItems(ctx, v, val, rt, kind === "map");
    } else if (kind === "typed") {
      keys = val <= EXTRAS ? keysIn(v, val) : [];
      open = prefix(ctor, tag, "TypedArray", "(" + val + ")") + "[";
      close = "]";
      if (val === 0 && keys.length === 0) return open + "]";
      arrayish = true;
      items = () => typedItems(v, val);
    } else {
      keys = keysIn(v, kind === "String" ? val.length : undefined);
      const p = kind === "date" || kind === "regexp" ? prefix(ctor, tag, kind === "date" ? "Date" : "RegExp") : "";
      if (typeof v === "function") base = fnBase(v, ctor, tag);
      else if (kind === "regexp") base = (p === "RegExp " ? "" : p) + apply(reString, v, []);
      else if (kind === "date") base = (p === "Date " ? "" : p) + (val !== val ? "Invalid Date" : apply(dateISO, v, []));
      else if (kind === "error") base = errorBase(ctx, v, ctor, tag, keys);
      else if (kind === "Number" || kind === "String" || kind === "Boolean" || kind === "BigInt" || kind === "Symbol") {
        base = "[" + kind + ": " + prim({ indent: 0 }, val) + "]";
      } else if (kind === "buffer") {
        open = prefix(ctor, tag, "ArrayBuffer") + "{";
        items = () => [bytes(v, val), "byteLength: " + val];
      } else if (kind === "view") {
        open = prefix(ctor, tag, "DataView") + "{";
        items = () => ["byteLength: " + val, "byteOffset: " + apply(dvOffset, v, []), named(ctx, "buffer", apply(dvBuffer, v, []), rt)];
      } else if (kind === "promise" || kind === "WeakMap" || kind === "WeakSet") {
        open = prefix(ctor, tag, kind === "promise" ? "Promise" : kind) + "{";
        items = () => [kind === "promise" ? "<pending>" : "<items unknown>"];
      } else {
        open = (ctor === "Object" ? (tag !== "" ? prefix(ctor, tag, "Object") : "") : prefix(ctor, tag, "Object")) + "{";
        if (keys.length === 0) return open + "}";
      }
      if (base !== "") {
        left -= base.length;
        if (keys.length === 0) return base;
      }
    }
    more0 = hidden;
    if (rt > ctx.depth) {
      const name = slice(prefix(ctor, tag, "Object"), 0, -1);
      return ctor === null ? name : "[" + name + "]";
    }
    rt++;
    ctx.seen[ctx.seen.length] = v;
    ctx.cur = rt;
    const out = items();
    for (let i = 0; i < keys.length; i++) {
      if (i === ITEMS || left <= 0) { out[out.length] = left <= 0 ? "..." : more(keys.length - i + more0); break; }
      out[out.length] = entry(ctx, v, keys[i], rt, false);
      left -= 4;
    }
    for (let j = 0; j < ctx.refs.length; j++) if (ctx.refs[j] === v) base = "<ref *" + (j + 1) + ">" + (base === "" ? "" : " " + base);
    ctx.seen.length--;
    return reduce(ctx, out, base, open, close, arrayish, rt, v);
  };

  // reduce puts the entries on one line when they fit Node's rule (the
  // three innermost levels of short entries), else one entry per line;
  // arrays of more than six short entries are grouped into columns.
  const reduce = (ctx, out, base, open, close, arrayish, rt, v) => {
    const count = out.length;
    if (arrayish && count > 6) out = columns(ctx, out, v);
    if (ctx.cur - rt < 3 && count === out.length) {
      let total = out.length * 2 + ctx.indent + open.length + base.length + 10, fits = total + out.length <= WIDTH;
      for (let i = 0; fits && i < out.length; i++) { total += out[i].length; fits = total <= WIDTH; }
      if (fits && indexOf(base, "\n") === -1) {
        const line = join(out, ", ");
        if (indexOf(line, "\n") === -1) return (base ? base + " " : "") + open + " " + line + " " + close;
      }
    }
    const nl = "\n" + repeat(" ", ctx.indent);
    return (base ? base + " " : "") + open + nl + "  " + join(out, "," + nl + "  ") + nl + close;
  };
  const pad = (s, n, start) => { const fill = n > s.length ? repeat(" ", n - s.length) : ""; return start ? fill + s : s + fill; };
  const columns = (ctx, out, v) => {
    let total = 0, longest = 0;
    const n = out.length > ITEMS ? out.length - 1 : out.length;
    for (let i = 0; i < n; i++) { total += out[i].length + 2; longest = max(longest, out[i].length); }
    const cell = longest + 2;
    if (!(cell * 3 + ctx.indent < WIDTH && (total / cell > 5 || longest <= 6))) return out;
    const biased = max(cell - 3 - sqrt(cell - total / out.length), 1);
    const cols = min(round(sqrt(2.5 * biased * n) / biased), floor((WIDTH - ctx.indent) / cell), 12, 15);
    if (cols <= 1) return out;
    const widths = [];
    for (let c = 0; c < cols; c++) {
      let w = 0;
      for (let j = c; j < n; j += cols) w = max(w, out[j].length);
      widths[c] = w + 2;
    }
    let numeric = true;
    for (let i = 0; numeric && i < out.length; i++) {
      const d = own(v, i);
      numeric = data(d) && (typeof d.value === "number" || typeof d.value === "bigint");
    }
    const rows = [];
    for (let i = 0; i < n; i += cols) {
      const last = min(i + cols, n) - 1;
      let row = "";
      for (let j = i; j < last; j++) row += pad(out[j] + ", ", widths[j - i], numeric);
      row += numeric ? pad(out[last], widths[last - i] - 2, true) : out[last];
      rows[rows.length] = row;
    }
    if (n < out.length) rows[rows.length] = out[n];
    return rows;
  };

  const inspect = (v, depth) => fmt({ depth, indent: 0, cur: 0, seen: [], refs: [] }, v, 0);
  const isObj = (v) => v !== null && (typeof v === "object" || typeof v === "function");
  // numeric is the number %d, %i and %f see: never from guest code.
  const numeric = (v, conv) => {
    if (typeof v === "bigint") return v + "n";
    if (typeof v === "symbol") return "NaN";
    if (isObj(v)) {
      try { const sh = shape(v); v = sh[2] === "Number" || sh[2] === "date" ? sh[3] : NaN; } catch (_) { v = NaN; }
    }
    return number(conv(v));
  };
  const format = (args) => {
    left = CAP;
    let out = "", a = 0, sep = "";
    const first = args[0];
    if (typeof first === "string") {
      if (args.length === 1) return first;
      let at = 0;
      for (let i = 0; i < first.length - 1; i++) {
        if (code(first, i) !== 37) continue;
        const c = code(first, ++i);
        if (a + 1 === args.length) {
          if (c === 37) { out += slice(first, at, i); at = i + 1; }
          continue;
        }
        let t;
        if (c === 115) { // %s
          const x = args[++a];
          t = typeof x === "number" ? number(x) : typeof x === "bigint" ? x + "n" : typeof x === "function" ? source(x) : isObj(x) ? inspect(x, 0) : text(x);
        } else if (c === 106) { // %j
          try { t = "" + stringify(args[++a]); } catch (e) { // as Node: only a cycle is printed
            const m = isObj(e) ? peek(e, "message") : undefined;
            if (typeof m !== "string" || indexOf(m, "ircular") === -1) throw e;
            t = "[Circular]";
          }
        } else if (c === 100) t = numeric(args[++a], num);
        else if (c === 105) t = numeric(args[++a], (x) => toInt(x));
        else if (c === 102) t = numeric(args[++a], toFloat);
        else if (c === 79) t = inspect(args[++a], 2);
        else if (c === 111) t = inspect(args[++a], 4);
        else if (c === 99) { a++; t = ""; }
        else if (c === 37) { out += slice(first, at, i); at = i + 1; continue; }
        else continue;
        if (at !== i - 1) out += slice(first, at, i - 1);
        out += t;
        at = i + 1;
        if (out.length > CAP) break;
      }
      if (at !== 0) { a++; sep = " "; if (at < first.length) out += slice(first, at); }
    }
    for (; a < args.length && out.length <= CAP; a++) {
      out += sep + (typeof args[a] === "string" ? args[a] : inspect(args[a], 2));
      sep = " ";
    }
    return out;
  };

  // table draws rows as Node's console.table does: an index column, a
  // column per key of the rows that are objects (in the order first seen,
  // or the ones named), and "Values" for rows that are not; Maps and Sets
  // by iteration index. A cell shows its value at depth 0 (-1 for objects
  // of more than two keys). Widths count code units, not display columns;
  // at most TABLE_ROWS rows are drawn.
  const TABLE_ROWS = 1000;
  const sizeGetter = (P) => getter(P, "size");
  const mapSizeOf = sizeGetter(Map.prototype), setSizeOf = sizeGetter(Set.prototype);
  const sized = (f, v) => { try { return apply(f, v, []); } catch (_) { return -1; } };
  const cellOf = (v) => inspect(v, isObj(v) && !isArray(v) && keysOf(v).length > 2 ? -1 : 0);
  const table = (v, only) => {
    const rows = [], indexName = sized(mapSizeOf, v) >= 0 || sized(setSizeOf, v) >= 0 ? "(iteration index)" : "(index)";
    const isMap = sized(mapSizeOf, v) >= 0, isSet = !isMap && sized(setSizeOf, v) >= 0;
    let total = 0;
    if (isMap || isSet) {
      const it = apply(isMap ? mapEntries : setValues, v, []);
      for (let r = apply(isMap ? mapNext : setNext, it, []); !r.done; r = apply(isMap ? mapNext : setNext, it, [])) {
        if (total++ < TABLE_ROWS) rows[rows.length] = isMap ? [str(rows.length), r.value[1], r.value[0]] : [str(rows.length), r.value];
      }
    } else {
      const ks = keysOf(v);
      total = ks.length;
      for (let i = 0; i < ks.length && i < TABLE_ROWS; i++) rows[rows.length] = [ks[i], peek(v, ks[i])];
    }
    const cols = [], colIndex = new Map(), cells = [];
    let values = false;
    const wanted = isArray(only) ? only : null;
    if (wanted) for (let i = 0; i < wanted.length; i++) { const k = str(wanted[i]); if (!mapHas(colIndex, k)) { mapSet(colIndex, k, cols.length); cols[cols.length] = k; } }
    for (let i = 0; i < rows.length; i++) {
      const [index, row] = rows[i], line = [index], fields = [];
      if (isObj(row) && !isMap) {
        const ks = wanted || keysOf(row);
        for (let j = 0; j < ks.length && j < ITEMS; j++) {
          const k = str(ks[j]);
          if (!wanted && !mapHas(colIndex, k)) { mapSet(colIndex, k, cols.length); cols[cols.length] = k; }
          if (hasOwn(row, k)) fields[mapGet(colIndex, k)] = cellOf(peek(row, k));
        }
      } else {
        values = true;
        line.value = cellOf(row);
      }
      if (isMap) line.key = cellOf(rows[i][2]);
      line.fields = fields;
      cells[cells.length] = line;
    }
    const head = [indexName];
    if (isMap) head[head.length] = "Key";
    for (let i = 0; i < cols.length; i++) head[head.length] = cols[i];
    if (values) head[head.length] = "Values";
    const body = [];
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i], out = [c[0]];
      if (isMap) out[out.length] = c.key;
      for (let j = 0; j < cols.length; j++) out[out.length] = c.fields[j] === undefined ? "" : c.fields[j];
      if (values) out[out.length] = c.value === undefined ? "" : c.value;
      body[body.length] = out;
    }
    const widths = [];
    for (let j = 0; j < head.length; j++) {
      let w = head[j].length;
      for (let i = 0; i < body.length; i++) w = max(w, body[i][j].length);
      widths[j] = w + 2;
    }
    const rule = (l, m, r) => { let s = l; for (let j = 0; j < widths.length; j++) s += (j ? m : "") + repeat("\u2500", widths[j]); return s + r; };
    const line = (cs) => { let s = "\u2502"; for (let j = 0; j < cs.length; j++) s += " " + cs[j] + repeat(" ", widths[j] - 1 - cs[j].length) + "\u2502"; return s; };
    let out = rule("\u250c", "\u252c", "\u2510") + "\n" + line(head) + "\n" + rule("\u251c", "\u253c", "\u2524");
    for (let i = 0; i < body.length && out.length <= CAP; i++) out += "\n" + line(body[i]);
    out += "\n" + rule("\u2514", "\u2534", "\u2518");
    if (total > rows.length) out += "\n" + plural(total - rows.length, "more row") + " not shown";
    return out;
  };

  let group = "";
  const print = (level, line) => {
    line = group + level + (group === "" ? line : replaceAll(line, "\n", "\n" + group));
    if (line.length > CAP) {
      const cut = code(line, CAP - 1) >= 0xd800 && code(line, CAP - 1) <= 0xdbff ? CAP - 1 : CAP;
      line = slice(line, 0, cut) + " ... " + plural(line.length - cut, "more character") + " (console output is cut at 1 MiB a call)";
    }
    emit("text", line);
  };
  const level = (p) => (...args) => print(p, format(args));
  const label = (l) => (l === undefined ? "default" : typeof l === "string" ? l : isObj(l) ? ((left = CAP), inspect(l, 0)) : text(l));
  const counts = new Map(), timers = new Map();
  const mapGet = uncurry(Map.prototype.get), mapSet = uncurry(Map.prototype.set), mapHas = uncurry(Map.prototype.has), mapDelete = uncurry(Map.prototype.delete);
  const pad2 = (n) => (n < 10 ? "0" : "") + n;
  const elapsed = (start) => { // as Node: 1.234ms, 1.234s, 1:02.345 (m:ss.mmm)
    const ms = now() - start;
    if (ms < 1000) return num(toFixed(ms, 3)) + "ms";
    if (ms < 60000) return toFixed(ms / 1000, 3) + "s";
    const h = floor(ms / 3600000), m = floor(ms / 60000) % 60, sec = toFixed((ms % 60000) / 1000, 3);
    return (h ? h + ":" + pad2(m) : m) + ":" + (sec.length < 6 ? "0" : "") + sec + (h ? " (h:mm:ss.mmm)" : " (m:ss.mmm)");
  };
  const timed = (name, end) => (l, ...rest) => {
    l = label(l);
    if (!mapHas(timers, l)) return print("[warn] ", "No such label '" + l + "' for console." + name + "()");
    const t = elapsed(mapGet(timers, l));
    if (end) mapDelete(timers, l);
    print("", l + ": " + t + (rest.length ? " " + format(rest) : ""));
  };
  const console = {
    log: level(""),
    info: level("[info] "),
    warn: level("[warn] "),
    error: level("[error] "),
    debug: level("[debug] "),
    trace: (...args) => print("[debug] ", "Trace" + (args.length ? ": " + format(args) : "")),
    dir: (v, options) => {
      let depth = 2;
      if (isObj(options)) {
        const d = peek(options, "depth");
        depth = d === null || d === Infinity ? 20 : typeof d === "number" && d === d ? min(d, 20) : 2;
      }
      left = CAP;
      print("", inspect(v, depth));
    },
    assert: (cond, ...args) => {
      if (cond) return;
      if (typeof args[0] === "string") args[0] = "Assertion failed: " + args[0];
      else { for (let i = args.length; i > 0; i--) args[i] = args[i - 1]; args[0] = "Assertion failed"; }
      print("[error] ", format(args));
    },
    count: (l) => {
      l = label(l);
      const n = (mapGet(counts, l) || 0) + 1;
      mapSet(counts, l, n);
      print("", l + ": " + n);
    },
    countReset: (l) => {
      l = label(l);
      if (mapHas(counts, l)) mapSet(counts, l, 0);
      else print("[warn] ", "Count for '" + l + "' does not exist");
    },
    time: (l) => {
      l = label(l);
      if (mapHas(timers, l)) return print("[warn] ", "Label '" + l + "' already exists for console.time()");
      mapSet(timers, l, now());
    },
    timeEnd: timed("timeEnd", true),
    timeLog: timed("timeLog", false),
    group: (...args) => { if (args.length) print("", format(args)); group += "  "; },
    groupEnd: () => { group = slice(group, 0, -2); },
    clear: () => {},
  };
  console.dirxml = console.log;
  console.table = (v, columns) => { if (!isObj(v)) return console.log(v); left = CAP; print("", table(v, columns)); };
  console.groupCollapsed = console.group;
  Object.defineProperty(console, sTag, { value: "console", configurable: true });
  Object.defineProperty(g, "console", { value: console, writable: true, enumerable: false, configurable: true });
})();
