// Intl for the guest, evaluated after tzdata.js and intldata.js. The bridge
// has only asynchronous requests, and Intl is synchronous, so all of it lives
// here: locale data extracted from ICU (intldata.js), time zone rules from
// Go's database (tzdata.js), and the formatting rules that use them. It lives
// in the template heap, so snapshots stay portable. What cannot be honoured
// (a locale, zone, option or name without data) throws a RangeError naming
// it; nothing falls back silently. Node's output is the reference.
(() => {
  "use strict";
  const g = globalThis;
  const LOC = g.__cm_intl_locales, ZONES = g.__cm_intl_zones;
  delete g.__cm_intl_locales;
  delete g.__cm_intl_zones;
  const parse = JSON.parse, str = String, isArray = Array.isArray, floor = Math.floor, abs = Math.abs;
  const Err = RangeError, TypeErr = TypeError;
  const define = (o, name, value) => Object.defineProperty(o, name, { value, writable: true, enumerable: false, configurable: true });
  const MAX_LIST = 100000;
  // clip keeps an echoed argument short in an error message.
  const clip = (v) => { const t = str(v); return t.length > 64 ? t.slice(0, 64) + "…" : t; };

  // ---- Locales ----------------------------------------------------------
  const SUPPORTED = Object.keys(LOC).filter((k) => k[0] !== "$");
  const BY_LANG = {};
  for (const l of SUPPORTED) if (!BY_LANG[l.slice(0, 2)] || l === "en-US") BY_LANG[l.slice(0, 2)] = l;
  const cache = new Map();
  const data = (loc, part) => {
    const k = loc + "/" + part;
    let v = cache.get(k);
    if (v === undefined) { v = parse(LOC[loc][part]); cache.set(k, v); }
    return v;
  };
  const TAG = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?((?:-[a-wyz0-9](?:-[a-z0-9]{2,8})+)*)(?:-x(?:-[a-z0-9]{1,8})+)?$/i;
  const canonical = (tag) => {
    if (typeof tag !== "string" && (typeof tag !== "object" || tag === null)) throw new TypeErr("Language ID should be string or object.");
    const s = str(tag), m = s.length <= 255 ? TAG.exec(s) : null; // no tag is longer; nor does the match run on megabytes
    if (!m) throw new Err("Incorrect locale information provided");
    let out = m[1].toLowerCase();
    if (m[2]) out += "-" + m[2][0].toUpperCase() + m[2].slice(1).toLowerCase();
    if (m[3]) out += "-" + m[3].toUpperCase();
    const ext = {};
    if (m[4]) {
      const u = /-u((?:-[a-z0-9]{2,8})+)/i.exec(m[4]);
      if (u) {
        let key = "";
        for (const t of u[1].slice(1).toLowerCase().split("-")) {
          if (t.length === 2) { key = t; ext[key] = "true"; } else if (key) ext[key] = ext[key] === "true" ? t : ext[key] + "-" + t;
        }
      }
      out += m[4].toLowerCase();
    }
    const base = out.replace(/-[a-z0-9](?:-[a-z0-9]{2,8})+$/i, "").split(/-[a-wyz0-9]-/)[0];
    return { tag: out, base, lang: m[1].toLowerCase(), script: m[2] ? m[2].toLowerCase() : "", region: m[3] ? m[3].toUpperCase() : "", ext };
  };
  const list = (locales) => {
    if (locales === undefined) return [];
    if (typeof locales === "string" || (typeof locales === "object" && locales !== null && !isArray(locales) && locales instanceof IntlLocale)) return [canonical(str(locales))];
    const o = Object(locales), n = o.length >>> 0, out = [];
    if (n > MAX_LIST) throw new Err(`Intl: a list of more than ${MAX_LIST} locales is not negotiated`);
    for (let i = 0; i < n; i++) if (i in o) out.push(canonical(o[i]));
    return out;
  };
  // match is Node's lookup for the locales here: an exact tag, a language
  // alone for its main locale, a script where it means the same.
  const match = (c) => {
    const base = c.lang + (c.region ? "-" + c.region : "");
    if (c.script && !(c.lang === "zh" && c.script === "hans") && !(c.script === "latn" && c.lang !== "zh" && c.lang !== "ja" && c.lang !== "ko" && c.lang !== "ru")) return undefined;
    if (SUPPORTED.includes(base)) return base;
    if (!c.region) return BY_LANG[c.lang];
    return undefined;
  };
  const available = () => SUPPORTED.join(", ");
  const resolve = (locales, keys) => {
    const all = list(locales);
    let found, c;
    for (c of all) if ((found = match(c))) break;
    if (!found) {
      if (all.length) throw new Err(`Intl: locale "${clip(all[0].tag)}" is not available in this sandbox (available: ${available()}, and their languages alone)`);
      found = "en-US";
      c = { ext: {}, base: "en-US" };
    }
    const ext = {};
    let shown = c.base;
    for (const [k, v] of Object.entries(c.ext)) {
      if (k === "nu" && v !== "latn") throw new Err(`Intl: numbering system "${clip(v)}" is not available (only latn)`);
      if (k === "ca" && v !== "gregory") throw new Err(`Intl: calendar "${clip(v)}" is not available (only gregory)`);
      if (k === "co" && v !== "standard" && v !== "default") throw new Err(`Intl: collation "${clip(v)}" is not available`);
      if (keys.includes(k)) { ext[k] = v; shown += (shown.includes("-u-") ? "-" : "-u-") + k + (v === "true" ? "" : "-" + v); }
    }
    // locale is the data's; shown is what resolvedOptions reports, as Node
    // does: the tag asked for, with the extensions that were used.
    return { locale: found, ext, shown };
  };

  // ---- Options ----------------------------------------------------------
  const options = (o) => (o === undefined ? Object.create(null) : o === null ? (() => { throw new TypeErr("Options must be an object"); })() : Object(o));
  const opt = (o, name, values, fallback) => {
    let v = o[name];
    if (v === undefined) return fallback;
    if (values === "boolean") return Boolean(v);
    v = str(v);
    if (values && !values.includes(v)) throw new Err(`Value ${clip(v)} out of range for Intl options property ${name}`);
    return v;
  };
  const numOpt = (o, name, min, max, fallback) => {
    let v = o[name];
    if (v === undefined) return fallback;
    v = Number(v);
    if (!(v >= min && v <= max)) throw new Err(`${name} value is out of range.`);
    return floor(v);
  };

  // ---- Plural rules -----------------------------------------------------
  // operands of a formatted decimal "123.450": i integer, v visible fraction
  // digits, f fraction as an integer, t without trailing zeros.
  const plural = (lang, s, ordinal) => {
    const [ip, fp = ""] = s.replace(/^-/, "").split(".");
    const i = Number(ip.slice(-7)), v = fp.length, n = Number(s.replace(/^-/, "")), big = ip.length > 6 && /0{6}$/.test(ip);
    if (ordinal) {
      if (lang === "en") {
        const a = i % 10, b = i % 100;
        return v === 0 && a === 1 && b !== 11 ? "one" : v === 0 && a === 2 && b !== 12 ? "two" : v === 0 && a === 3 && b !== 13 ? "few" : "other";
      }
      if (lang === "fr") return n === 1 ? "one" : "other";
      if (lang === "it") return n === 11 || n === 8 || n === 80 || n === 800 ? "many" : "other";
      return "other";
    }
    switch (lang) {
      case "en": case "de": return i === 1 && v === 0 ? "one" : "other";
      case "it": case "es": case "pt": case "fr": {
        if (lang === "es" ? n === 1 : lang === "it" ? i === 1 && v === 0 : i === 0 || i === 1) return "one";
        return v === 0 && i !== 0 && big ? "many" : "other";
      }
      case "ru": {
        if (v !== 0) return "other";
        const a = i % 10, b = i % 100;
        return a === 1 && b !== 11 ? "one" : a >= 2 && a <= 4 && (b < 12 || b > 14) ? "few" : "many";
      }
      default: return "other";
    }
  };
  const CATS = { en: ["one", "other"], de: ["one", "other"], fr: ["one", "many", "other"], es: ["one", "many", "other"], it: ["one", "many", "other"],
    pt: ["one", "many", "other"], ru: ["one", "few", "many", "other"], ja: ["other"], zh: ["other"], ko: ["other"] };
  const ORD = { en: ["one", "two", "few", "other"], fr: ["one", "other"], it: ["many", "other"] };
  const byCat = (m, cat) => (isArray(m) || typeof m === "string" ? m : m[cat] ?? m.other);

  // ---- Decimal arithmetic on digit strings --------------------------------
  // A value is { neg, int, frac } in decimal digits; numbers start from their
  // shortest round-trip digits, as ICU does, so 1.005 rounds to 1.01.
  const decimal = (x) => {
    if (typeof x === "bigint") { const s = str(x); return s[0] === "-" ? { neg: true, int: s.slice(1), frac: "" } : { neg: false, int: s, frac: "" }; }
    const neg = x < 0 || Object.is(x, -0);
    const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(abs(x).toExponential());
    const digits = m[1] + (m[2] || ""), pos = Number(m[3]) + 1;
    if (pos <= 0) return { neg, int: "0", frac: "0".repeat(-pos) + digits };
    if (pos >= digits.length) return { neg, int: digits + "0".repeat(pos - digits.length), frac: "" };
    return { neg, int: digits.slice(0, pos), frac: digits.slice(pos) };
  };
  const shift = (d, k) => { // multiply by 10^k
    let s = d.int + d.frac, p = d.int.length + k;
    if (p <= 0) { s = "0".repeat(1 - p) + s; p = 1; }
    if (p > s.length) s += "0".repeat(p - s.length);
    return { neg: d.neg, int: s.slice(0, p).replace(/^0+(?=\d)/, ""), frac: s.slice(p) };
  };
  const increment = (s) => { // a digit string plus one in its last place
    let i = s.length - 1;
    while (i >= 0 && s[i] === "9") i--;
    return i < 0 ? "1" + "0".repeat(s.length) : s.slice(0, i) + (Number(s[i]) + 1) + "0".repeat(s.length - 1 - i);
  };
  const roundFrac = (d, max, mode) => {
    if (d.frac.length <= max) return d;
    const keep = d.int + d.frac.slice(0, max), rest = d.frac.slice(max);
    const up = mode === "trunc" ? false : mode === "ceil" ? !d.neg && /[1-9]/.test(rest) : mode === "floor" ? d.neg && /[1-9]/.test(rest)
      : mode === "expand" ? /[1-9]/.test(rest) : rest[0] > "5" || (rest[0] === "5" && (mode !== "halfEven" || /[1-9]/.test(rest.slice(1)) || Number(keep[keep.length - 1]) % 2 === 1));
    let s = up ? increment(keep) : keep;
    const il = s.length - max;
    return { neg: d.neg, int: s.slice(0, il) || "0", frac: s.slice(il) };
  };
  const intDigits = (d) => (d.int.replace(/^0+/, "").length);
  const magnitude = (d) => { // position of the first significant digit, 0 for the ones
    const i = d.int.replace(/^0+/, "");
    if (i) return i.length - 1;
    const z = /^0*/.exec(d.frac)[0].length;
    return z === d.frac.length ? 0 : -z - 1;
  };
  const roundSig = (d, max, mode) => {
    const k = max - 1 - magnitude(d); // fraction digits to keep, negative for tens and more
    if (k >= 0) return roundFrac(d, k, mode);
    const r = roundFrac(shift(d, k), 0, mode);
    return { neg: d.neg, int: shift(r, -k).int, frac: "" };
  };
  const padFrac = (d, min, max) => {
    let f = d.frac;
    while (f.length > min && f[f.length - 1] === "0") f = f.slice(0, -1);
    if (f.length > max) f = f.slice(0, max);
    return { neg: d.neg, int: d.int === "" ? "0" : d.int, frac: f.padEnd(min, "0") };
  };
  const isZero = (d) => !/[1-9]/.test(d.int + d.frac);

  // ---- NumberFormat ---------------------------------------------------------
  const CUR_DIGITS = parse(LOC.$currencyDigits);
  const UNITS = { acre: 0, bit: 0, byte: 0, celsius: 0, centimeter: 0, day: 0, degree: 0, fahrenheit: 0, "fluid-ounce": 0, foot: 0, gallon: 0,
    gigabit: 0, gigabyte: 0, gram: 0, hectare: 0, hour: 0, inch: 0, kilobit: 0, kilobyte: 0, kilogram: 0, kilometer: 0, liter: 0,
    megabit: 0, megabyte: 0, meter: 0, microsecond: 0, mile: 0, "mile-scandinavian": 0, milliliter: 0, millimeter: 0, millisecond: 0,
    minute: 0, month: 0, nanosecond: 0, ounce: 0, percent: 0, petabyte: 0, pound: 0, second: 0, stone: 0, terabit: 0, terabyte: 0, week: 0, yard: 0, year: 0 };
  const wellFormedUnit = (u) => { const m = /^([a-z-]+)-per-([a-z-]+)$/.exec(u); return u in UNITS || (m !== null && m[1] in UNITS && m[2] in UNITS); };
  const nfSlots = new WeakMap();
  const slot = (m, o, what) => {
    const s = m.get(o);
    if (!s) throw new TypeErr(`Method ${what} called on incompatible receiver ${typeof o === "object" ? "object" : clip(o)}`);
    return s;
  };

  function NumberFormat(locales, opts) {
    if (!new.target) return new NumberFormat(locales, opts);
    const { locale, shown } = resolve(locales, ["nu"]);
    const o = options(opts);
    const r = { locale, shown, numberingSystem: "latn" };
    opt(o, "localeMatcher", ["lookup", "best fit"]);
    opt(o, "numberingSystem", ["latn"]);
    r.style = opt(o, "style", ["decimal", "percent", "currency", "unit"], "decimal");
    const currency = opt(o, "currency");
    if (currency !== undefined && !/^[a-z]{3}$/i.test(currency)) throw new Err("Invalid currency code : " + clip(currency));
    r.currencyDisplay = opt(o, "currencyDisplay", ["code", "symbol", "narrowSymbol", "name"], "symbol");
    r.currencySign = opt(o, "currencySign", ["standard", "accounting"], "standard");
    const unit = opt(o, "unit");
    if (unit !== undefined && !wellFormedUnit(unit)) throw new Err("Invalid unit argument for Intl.NumberFormat() '" + clip(unit) + "'");
    r.unitDisplay = opt(o, "unitDisplay", ["short", "narrow", "long"], "short");
    if (r.style === "currency") {
      if (currency === undefined) throw new TypeErr("Currency code is required with currency style.");
      r.currency = currency.toUpperCase();
      if (!(r.currency in CUR_DIGITS)) throw new Err(`Intl: currency ${r.currency} is not available in this sandbox (available: ${Object.keys(CUR_DIGITS).join(", ")})`);
    }
    if (r.style === "unit") {
      if (unit === undefined) throw new TypeErr("Unit is required with unit style.");
      if (!(unit in data(locale, "num").unit)) throw new Err(`Intl: unit "${clip(unit)}" is not available in this sandbox (available: ${Object.keys(data(locale, "num").unit).join(", ")})`);
      r.unit = unit;
    }
    r.notation = opt(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard");
    if (r.notation === "scientific" || r.notation === "engineering") throw new Err(`Intl: notation "${r.notation}" is not available in this sandbox`);
    const cd = r.style === "currency" ? CUR_DIGITS[r.currency] : 0;
    // The defaults when fraction digits are asked for (compact without them
    // rounds its own way, below).
    const minDef = r.style === "currency" ? cd : 0;
    const maxDef = r.style === "currency" ? cd : r.style === "percent" ? 0 : 3;
    r.minimumIntegerDigits = numOpt(o, "minimumIntegerDigits", 1, 21, 1);
    const mnfd = o.minimumFractionDigits, mxfd = o.maximumFractionDigits, mnsd = o.minimumSignificantDigits, mxsd = o.maximumSignificantDigits;
    r.roundingIncrement = numOpt(o, "roundingIncrement", 1, 5000, 1);
    if (r.roundingIncrement !== 1) throw new Err("Intl: roundingIncrement other than 1 is not available in this sandbox");
    r.roundingMode = opt(o, "roundingMode", ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"], "halfExpand");
    if (r.roundingMode === "halfCeil" || r.roundingMode === "halfFloor" || r.roundingMode === "halfTrunc") throw new Err(`Intl: roundingMode "${r.roundingMode}" is not available in this sandbox`);
    r.roundingPriority = opt(o, "roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto");
    if (r.roundingPriority !== "auto") throw new Err(`Intl: roundingPriority "${r.roundingPriority}" is not available in this sandbox`);
    r.trailingZeroDisplay = opt(o, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto");
    if (mnsd !== undefined || mxsd !== undefined) {
      r.minimumSignificantDigits = numOpt(o, "minimumSignificantDigits", 1, 21, 1);
      r.maximumSignificantDigits = numOpt(o, "maximumSignificantDigits", r.minimumSignificantDigits, 21, 21);
    } else if (mnfd !== undefined || mxfd !== undefined || r.notation !== "compact") {
      let mn = numOpt(o, "minimumFractionDigits", 0, 100, undefined), mx = numOpt(o, "maximumFractionDigits", 0, 100, undefined);
      if (mn === undefined) mn = Math.min(minDef, mx ?? minDef);
      else if (mx === undefined) mx = Math.max(maxDef, mn);
      else if (mn > mx) throw new Err("maximumFractionDigits value is out of range.");
      if (mx === undefined) mx = Math.max(maxDef, mn);
      r.minimumFractionDigits = mn;
      r.maximumFractionDigits = mx;
    } else r.compactRounding = true;
    r.compactDisplay = opt(o, "compactDisplay", ["short", "long"], "short");
    const ug = o.useGrouping;
    r.useGrouping = ug === undefined ? (r.notation === "compact" ? "min2" : "auto") : ug === true || ug === "true" ? "always" : ug === false || ug === "false" || ug === null || ug === "" ? false
      : ["min2", "auto", "always"].includes(str(ug)) ? str(ug) : (() => { throw new Err(`Value ${str(ug)} out of range for Intl options property useGrouping`); })();
    r.signDisplay = opt(o, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto");
    nfSlots.set(this, r);
  }
  const toNumeric = (x) => {
    if (typeof x === "bigint") return x;
    if (typeof x === "string") { const t = x.trim(); if (/^-?\d{16,}$/.test(t)) return BigInt(t); }
    return Number(x);
  };
  const group = (int, sep, r, minGroup) => {
    if (r.useGrouping === false || int.length <= 3) return [int];
    if ((r.useGrouping === "min2" || (r.useGrouping === "auto" && minGroup === 2)) && int.length < 5) return [int];
    const out = [];
    let i = int.length % 3 || 3;
    out.push(int.slice(0, i));
    for (; i < int.length; i += 3) out.push(sep, int.slice(i, i + 3));
    return out;
  };
  // affixParts turns a pattern affix of the data ("-", "¤", "%" marks and
  // literal text) into parts; text is the compact or unit word.
  const affixParts = (s, r, n, textType) => {
    const out = [];
    let lit = "";
    const flush = () => { if (lit) { pushText(out, lit, textType); lit = ""; } };
    for (const ch of s) {
      if (ch === "-") { flush(); out.push({ type: "minusSign", value: n.minus }); }
      else if (ch === "+") { flush(); out.push({ type: "plusSign", value: n.plus }); }
      else if (ch === "¤") { flush(); out.push({ type: "currency", value: currencySymbol(r, n) }); }
      else if (ch === "%") { flush(); out.push({ type: "percentSign", value: "%" }); }
      else lit += ch;
    }
    flush();
    return out;
  };
  const pushText = (out, s, type) => {
    if (!type) { out.push({ type: "literal", value: s }); return; }
    const m = /^(\s*)(.*?)(\s*)$/su.exec(s);
    if (m[1]) out.push({ type: "literal", value: m[1] });
    if (m[2]) out.push({ type, value: m[2] });
    if (m[3]) out.push({ type: "literal", value: m[3] });
  };
  const currencySymbol = (r, n) => {
    if (r.currencyDisplay === "code") return r.currency;
    const s = n.currency.sym[r.currency];
    return isArray(s) ? s[r.currencyDisplay === "narrowSymbol" ? 1 : 0] : s;
  };
  const formatNumberParts = (r, x) => {
    const n = data(r.locale, "num");
    const lang = r.locale.slice(0, 2);
    x = toNumeric(x);
    const out = [];
    let d, compactAffix = null, text = "";
    const special = typeof x === "number" && !isFinite(x);
    if (special) d = { neg: x < 0, int: "", frac: "" };
    else {
      d = decimal(x);
      if (r.style === "percent") d = shift(d, 2);
      const mode = { halfExpand: "half", halfEven: "halfEven", ceil: "ceil", floor: "floor", expand: "expand", trunc: "trunc" }[r.roundingMode];
      const round = (d) => {
        if (r.compactRounding) return intDigits(d) >= 2 ? padFrac(roundFrac(d, 0, mode), 0, 0) : padFrac(roundSig(d, 2, mode), 0, 20);
        if (r.maximumSignificantDigits !== undefined) {
          d = roundSig(d, r.maximumSignificantDigits, mode);
          return padFrac(d, Math.max(0, r.minimumSignificantDigits - 1 - magnitude(d)), 100);
        }
        return padFrac(roundFrac(d, r.maximumFractionDigits, mode), r.minimumFractionDigits, r.maximumFractionDigits);
      };
      if (r.notation === "compact") {
        // The magnitude is the rounded value's: 999999 is 1M, not 1000K.
        const rows = n.compact[r.compactDisplay];
        let exp = intDigits(d) - 1, out;
        for (let tries = 0; tries < 2; tries++) {
          const row = exp >= 3 ? rows[Math.min(exp, 14) - 3] : null;
          out = round(row ? shift(d, -row[0]) : d);
          compactAffix = row ? row[1] : null;
          const shown = intDigits(out) - 1 + (row ? row[0] : 0);
          if (shown <= exp || exp >= 14) break;
          exp = shown;
        }
        d = out;
      } else d = round(d);
      if (r.trailingZeroDisplay === "stripIfInteger" && /^0*$/.test(d.frac)) d.frac = "";
      if (d.int.length < r.minimumIntegerDigits) d.int = d.int.padStart(r.minimumIntegerDigits, "0");
    }
    const zero = !special && isZero(d);
    const showMinus = special ? x < 0 && r.signDisplay !== "never" : d.neg && !zero ? r.signDisplay !== "never" : d.neg && zero ? r.signDisplay === "always" || r.signDisplay === "auto" : false;
    const showPlus = !showMinus && (r.signDisplay === "always" || (r.signDisplay === "exceptZero" && !zero && !(special && isNaN(x)))) && !(special && isNaN(x) && r.signDisplay !== "always");
    // The number itself.
    const num = [];
    if (special) num.push(isNaN(x) ? { type: "nan", value: n.nan } : { type: "infinity", value: n.inf });
    else {
      for (const p of group(d.int, n.grp, r, n.minGroup)) num.push(p === n.grp ? { type: "group", value: p } : { type: "integer", value: p });
      if (d.frac) num.push({ type: "decimal", value: n.dec }, { type: "fraction", value: d.frac });
    }
    const numText = special ? "1" : d.int + (d.frac ? "." + d.frac : "");
    const cat = plural(lang, numText, false);
    // The affixes: [prefix, suffix] with "-" where the sign goes.
    let pre = "", suf = "", textType;
    if (r.style === "currency") {
      const ex = n.currency.ex[r.currency];
      const disp = r.currencyDisplay === "name" ? "code" : r.currencyDisplay;
      const pats = (ex && ex[disp]) || n.currency.pat[disp];
      if (r.currencyDisplay === "name") {
        [pre, suf] = byCat(n.currency.name[r.currency], cat);
        if (showMinus) pre = "-" + pre;
        textType = "currency";
      } else {
        [pre, suf] = pats[showMinus ? (r.currencySign === "accounting" ? 2 : 1) : 0];
        if (showMinus && !/[-(]/.test(pre + suf)) pre = "-" + pre;
      }
    } else if (r.style === "percent") {
      [pre, suf] = n[r.notation === "compact" ? "pctCompact" : "pct"][showMinus ? 1 : 0];
    } else if (r.style === "unit") {
      const u = n.unit[r.unit];
      [pre, suf] = byCat(u[r.unitDisplay] || u.short, cat);
      if (showMinus) pre += "-"; // the sign is the number's: 時速 -5 キロメートル
      textType = "unit";
    } else if (showMinus) pre = "-";
    if (showPlus) pre = pre.includes("-") ? pre.replace("-", "+") : r.style === "unit" ? pre + "+" : "+" + pre;
    if (compactAffix) {
      const [cp, cs] = byCat(compactAffix, cat);
      // Compact words sit next to the number, inside the style's affixes.
      text = cs;
      suf = cs + suf;
      if (cp) pre = pre + cp;
    }
    if (r.style === "currency" && r.currencyDisplay === "name") {
      out.push(...affixParts(pre, r, n), ...num);
      pushText(out, suf, "currency");
      return out;
    }
    const sufParts = compactAffix ? (() => {
      const o = [];
      const rest = suf.slice(text.length);
      pushText(o, text, "compact");
      o.push(...affixParts(rest, r, n, textType));
      return o;
    })() : affixParts(suf, r, n, textType);
    out.push(...affixParts(pre, r, n, textType), ...num, ...sufParts);
    return out;
  };
  const join = (parts) => { let s = ""; for (const p of parts) s += p.value; return s; };
  const boundFormat = (slots, self, fn) => {
    const r = slots.get(self);
    if (!r.bound) r.bound = (x) => fn(r, x);
    return r.bound;
  };
  Object.defineProperties(NumberFormat.prototype, {
    format: { get() { return boundFormat(nfSlots, (slot(nfSlots, this, "get Intl.NumberFormat.prototype.format"), this), (r, x) => join(formatNumberParts(r, x))); }, configurable: true },
  });
  define(NumberFormat.prototype, "formatToParts", function formatToParts(x) { return formatNumberParts(slot(nfSlots, this, "Intl.NumberFormat.prototype.formatToParts"), x); });
  define(NumberFormat.prototype, "resolvedOptions", function resolvedOptions() {
    const r = slot(nfSlots, this, "Intl.NumberFormat.prototype.resolvedOptions"), out = {};
    out.locale = r.shown;
    for (const k of ["numberingSystem", "style", "currency", "currencyDisplay", "currencySign", "unit", "unitDisplay", "minimumIntegerDigits",
      "minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits", "useGrouping", "notation", "compactDisplay",
      "signDisplay", "roundingIncrement", "roundingMode", "roundingPriority", "trailingZeroDisplay"]) {
      if (r[k] === undefined) continue;
      if ((k === "currency" || k === "currencyDisplay" || k === "currencySign") && r.style !== "currency") continue;
      if ((k === "unit" || k === "unitDisplay") && r.style !== "unit") continue;
      if (k === "compactDisplay" && r.notation !== "compact") continue;
      out[k] = r[k];
    }
    if (r.compactRounding) { out.minimumFractionDigits = 0; out.maximumFractionDigits = 0; out.minimumSignificantDigits = 1; out.maximumSignificantDigits = 2; out.roundingPriority = "morePrecision"; }
    return out;
  });

  // ---- PluralRules ------------------------------------------------------------
  const prSlots = new WeakMap();
  function PluralRules(locales, opts) {
    if (!new.target) throw new TypeErr("Constructor Intl.PluralRules requires 'new'");
    const { locale, shown } = resolve(locales, []);
    const o = options(opts);
    const type = opt(o, "type", ["cardinal", "ordinal"], "cardinal");
    const nf = new NumberFormat(locale, { minimumIntegerDigits: o.minimumIntegerDigits, minimumFractionDigits: o.minimumFractionDigits,
      maximumFractionDigits: o.maximumFractionDigits, minimumSignificantDigits: o.minimumSignificantDigits, maximumSignificantDigits: o.maximumSignificantDigits, useGrouping: false });
    prSlots.set(this, { locale, shown, type, nf: nfSlots.get(nf) });
  }
  const selectPlural = (r, x) => {
    const n = Number(x);
    if (!isFinite(n)) return "other";
    const parts = formatNumberParts(r.nf, abs(n));
    let s = "";
    for (const p of parts) s += p.type === "integer" ? p.value : p.type === "decimal" ? "." : p.type === "fraction" ? p.value : "";
    return plural(r.locale.slice(0, 2), s, r.type === "ordinal");
  };
  define(PluralRules.prototype, "select", function select(x) { return selectPlural(slot(prSlots, this, "Intl.PluralRules.prototype.select"), x); });
  define(PluralRules.prototype, "resolvedOptions", function resolvedOptions() {
    const r = slot(prSlots, this, "Intl.PluralRules.prototype.resolvedOptions"), lang = r.locale.slice(0, 2);
    const nfo = { minimumIntegerDigits: r.nf.minimumIntegerDigits, minimumFractionDigits: r.nf.minimumFractionDigits, maximumFractionDigits: r.nf.maximumFractionDigits };
    if (r.nf.maximumSignificantDigits !== undefined) { delete nfo.minimumFractionDigits; delete nfo.maximumFractionDigits; nfo.minimumSignificantDigits = r.nf.minimumSignificantDigits; nfo.maximumSignificantDigits = r.nf.maximumSignificantDigits; }
    return { locale: r.shown, type: r.type, ...nfo, pluralCategories: (r.type === "ordinal" ? ORD[lang] || ["other"] : CATS[lang]).slice().sort(), roundingIncrement: 1, roundingMode: "halfExpand", roundingPriority: "auto", trailingZeroDisplay: "auto" };
  });

  // ---- Time zones -------------------------------------------------------------
  let zoneIndex;
  // zoneLine finds a zone's line: by its exact name with one native search,
  // else through an index of lower-cased names built on first need (zone
  // names are case-insensitive).
  const zoneLine = (name) => {
    const at = ZONES.startsWith(name + "=") ? 0 : ZONES.indexOf("\n" + name + "=") + 1;
    if (at > 0 || ZONES.startsWith(name + "=")) return [name, at, ZONES.indexOf("\n", at)];
    return zoneIndexed().get(name.toLowerCase());
  };
  const zoneIndexed = () => {
    if (!zoneIndex) {
      zoneIndex = new Map();
      let i = 0;
      while (i < ZONES.length) {
        const e = ZONES.indexOf("\n", i), eq = ZONES.indexOf("=", i);
        zoneIndex.set(ZONES.slice(i, eq).toLowerCase(), [ZONES.slice(i, eq), i, e]);
        i = e + 1;
      }
    }
    return zoneIndex;
  };
  const zoneCache = new Map();
  const OFFSET_ZONE = /^([+-])(\d{2}):?(\d{2})$/;
  // zone returns { id, offset(ms) -> seconds east of UTC }.
  const zone = (tz) => {
    const key = str(tz);
    let z = zoneCache.get(key.toLowerCase());
    if (z) return z;
    const m = OFFSET_ZONE.exec(key);
    if (m) {
      if (Number(m[2]) > 23 || Number(m[3]) > 59) throw new Err("Invalid time zone specified: " + clip(key));
      const off = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60);
      z = { id: m[1] + m[2] + ":" + m[3], fixed: true, offsetAt: () => off, std: () => off };
    } else {
      let line = zoneLine(key);
      if (!line) throw new Err(`Invalid time zone specified: ${clip(key)}`);
      let id = line[0];
      if (/^(etc\/)?(utc|gmt|uct|zulu|universal|greenwich)(0|[+-]0)?$/i.test(id) || /^etc\/(utc|uct|zulu|universal|gmt|greenwich)$/i.test(id)) id = "UTC";
      let body = ZONES.slice(line[1] + line[0].length + 1, line[2]);
      if (body[0] === "@") { line = zoneLine(body.slice(1)); body = ZONES.slice(line[1] + line[0].length + 1, line[2]); }
      z = compileZone(id, body);
    }
    zoneCache.set(key.toLowerCase(), z);
    return z;
  };
  const compileZone = (id, body) => {
    const [offsS, trS, fromS, ruleS] = body.split(";");
    const offs = offsS.split(",").map((x) => parseInt(x, 36));
    const at = [], to = [];
    let t = 0;
    if (trS) for (const p of trS.split(",")) { t += parseInt(p.slice(0, -1), 36); at.push(t); to.push(offs[parseInt(p.slice(-1), 36)]); }
    const from = Date.UTC(Number(fromS), 0, 1) / 1000;
    const rule = ruleS ? posixRule(ruleS) : null;
    const fixed = at.length === 0 && (!rule || !rule.dst);
    const last = to.length ? to[to.length - 1] : offs[0];
    const offsetAt = (ms) => {
      const s = floor(ms / 1000);
      if (s < 0 && !fixed) throw new Err(`Intl: time zone ${id} before 1970 is not available in this sandbox`);
      if (s >= from) return rule ? rule.offsetAt(s) : last;
      let lo = 0, hi = at.length; // first transition after s
      while (lo < hi) { const mid = (lo + hi) >> 1; if (at[mid] <= s) lo = mid + 1; else hi = mid; }
      return lo === 0 ? offs[0] : to[lo - 1];
    };
    return { id, fixed, offsetAt };
  };
  // posixRule evaluates a POSIX TZ string as internal/intlgen/rule.go does.
  const posixRule = (s) => {
    let i = 0;
    const name = () => { if (s[i] === "<") i = s.indexOf(">", i) + 1; else while (i < s.length && /[A-Za-z]/.test(s[i])) i++; };
    const offset = () => {
      let sign = 1;
      if (s[i] === "+" || s[i] === "-") { if (s[i] === "-") sign = -1; i++; }
      let secs = 0, mult = 3600;
      for (let k = 0; k < 3; k++) {
        const m = /^\d+/.exec(s.slice(i));
        if (!m) break;
        secs += Number(m[0]) * mult; mult /= 60; i += m[0].length;
        if (s[i] === ":") i++; else break;
      }
      return sign * secs;
    };
    const date = () => {
      i++; // ","
      const d = { secs: 7200 };
      const num = () => { const m = /^\d+/.exec(s.slice(i)); i += m[0].length; return Number(m[0]); };
      if (s[i] === "M") { i++; d.kind = "M"; d.m = num(); i++; d.w = num(); i++; d.d = num(); }
      else if (s[i] === "J") { i++; d.kind = "J"; d.d = num(); }
      else { d.kind = "n"; d.d = num(); }
      if (s[i] === "/") { i++; d.secs = offset(); }
      return d;
    };
    name();
    const std = -offset();
    if (i >= s.length) return { dst: false, offsetAt: () => std };
    name();
    let dstOff = std + 3600;
    if (s[i] !== ",") dstOff = -offset();
    const start = date(), end = date();
    const local = (d, y) => {
      let day;
      if (d.kind === "J") day = Date.UTC(y, 0, d.d + (d.d >= 60 && (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 1 : 0));
      else if (d.kind === "n") day = Date.UTC(y, 0, 1 + d.d);
      else {
        const first = new Date(Date.UTC(y, d.m - 1, 1)).getUTCDay(), len = new Date(Date.UTC(y, d.m, 0)).getUTCDate();
        let dd = 1 + ((d.d - first + 7) % 7) + (d.w - 1) * 7;
        while (dd > len) dd -= 7;
        day = Date.UTC(y, d.m - 1, dd);
      }
      return day / 1000 + d.secs;
    };
    const years = new Map();
    const transitions = (y) => {
      let t = years.get(y);
      if (t === undefined) {
        const a = [local(start, y) - std, dstOff], b = [local(end, y) - dstOff, std];
        t = a[0] < b[0] ? [a, b] : [b, a];
        if (years.size < 512) years.set(y, t);
      }
      return t;
    };
    return {
      dst: true,
      offsetAt: (t) => {
        const y = new Date(t * 1000).getUTCFullYear();
        let off = std;
        for (let yy = y - 1; yy <= y + 1; yy++) for (const [at, o] of transitions(yy)) if (at <= t) off = o;
        return off;
      },
    };
  };

  // ---- DateTimeFormat ---------------------------------------------------------
  const dtfSlots = new WeakMap();
  const DATE_FIELDS = ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"];
  const TZ_LETTER = { short: "z", long: "zzzz", shortOffset: "O", longOffset: "OOOO", shortGeneric: "v", longGeneric: "vvvv" };
  const STYLES = ["full", "long", "medium", "short"];
  let defaultZone = "UTC";

  function widen(pat, key) { // the same rule as internal/intlgen/locales.mjs
    const want = {};
    for (const m of key.matchAll(/([A-Za-z])\1*/g)) want[m[1].toLowerCase() === "h" ? "h" : m[1]] = m[0].length;
    let out = "", q = false;
    for (let i = 0; i < pat.length;) {
      const c = pat[i];
      if (c === "'") { q = !q; out += c; i++; continue; }
      if (q || !/[A-Za-z]/.test(c)) { out += c; i++; continue; }
      let j = i; while (pat[j] === c) j++;
      let n = j - i;
      const k = c === "L" ? "M" : c === "c" ? "E" : "hHkK".includes(c) ? "h" : c;
      const w = want[k];
      if (w !== undefined) {
        if (k === "M") { if (n > 2 && w > 2) n = w; else if (n <= 2 && w <= 2) n = Math.max(n, w); }
        else if (k === "E" || k === "y") n = w;
        else if (k === "d" || k === "h" || k === "m" || k === "s") n = Math.max(n, w);
        else if (k === "S") n = w;
      }
      out += c.repeat(n); i = j;
    }
    return out;
  }
  const timeBase = (k) => k.replace(/^(h|H)\1?/, "$1").replace(/mm/, "m").replace(/ss/, "s").replace(/S+/, "SSS");
  const TZRE = /(zzzz|z|OOOO|O|vvvv|v)$/;
  const resolveTime = (t, k) => {
    if (t.exc[k] !== undefined) return t.exc[k];
    const b = timeBase(k);
    if (t.base[b] !== undefined) return widen(t.base[b], k);
    const m = TZRE.exec(k);
    if (m) { const p = resolveTime(t, k.slice(0, -m[1].length)); return p === undefined ? undefined : p + " " + m[1]; }
    return undefined;
  };
  const dateBase = (k) => k.replace(/^EEEEE/, "EEE").replace(/yy/, "y").replace(/^((?:E+)?y?)MM(?!M)/, "$1M").replace(/MMMMM/, "MMM").replace(/dd/, "d");

  function DateTimeFormat(locales, opts) {
    if (!new.target) return new DateTimeFormat(locales, opts);
    init(this, locales, opts, "any", "date");
  }
  const init = (self, locales, opts, required, defaults) => {
    const { locale, ext, shown } = resolve(locales, ["hc", "ca", "nu"]);
    const o = options(opts);
    const r = { locale, shown, calendar: "gregory", numberingSystem: "latn" };
    opt(o, "localeMatcher", ["lookup", "best fit"]);
    const cal = opt(o, "calendar");
    if (cal !== undefined && cal !== "gregory") throw new Err(`Intl: calendar "${clip(cal)}" is not available (only gregory)`);
    const nu = opt(o, "numberingSystem");
    if (nu !== undefined && nu !== "latn") throw new Err(`Intl: numbering system "${clip(nu)}" is not available (only latn)`);
    const hour12 = opt(o, "hour12", "boolean");
    let hc = opt(o, "hourCycle", ["h11", "h12", "h23", "h24"]);
    if (hour12 !== undefined) hc = undefined;
    const tz = o.timeZone;
    const z = zone(tz === undefined ? defaultZone : tz);
    r.timeZone = z.id;
    const f = {};
    f.weekday = opt(o, "weekday", ["narrow", "short", "long"]);
    f.era = opt(o, "era", ["narrow", "short", "long"]);
    f.year = opt(o, "year", ["2-digit", "numeric"]);
    f.month = opt(o, "month", ["2-digit", "numeric", "narrow", "short", "long"]);
    f.day = opt(o, "day", ["2-digit", "numeric"]);
    f.dayPeriod = opt(o, "dayPeriod", ["narrow", "short", "long"]);
    f.hour = opt(o, "hour", ["2-digit", "numeric"]);
    f.minute = opt(o, "minute", ["2-digit", "numeric"]);
    f.second = opt(o, "second", ["2-digit", "numeric"]);
    f.fractionalSecondDigits = numOpt(o, "fractionalSecondDigits", 1, 3, undefined);
    f.timeZoneName = opt(o, "timeZoneName", Object.keys(TZ_LETTER));
    opt(o, "formatMatcher", ["basic", "best fit"]);
    const dateStyle = opt(o, "dateStyle", STYLES), timeStyle = opt(o, "timeStyle", STYLES);
    const any = DATE_FIELDS.some((k) => f[k] !== undefined);
    if ((dateStyle || timeStyle) && any) throw new TypeErr(`Can't set option ${DATE_FIELDS.find((k) => f[k] !== undefined)} when ${dateStyle ? "dateStyle" : "timeStyle"} is used`);
    if (required === "date" && timeStyle && !dateStyle) throw new TypeErr("Invalid option : timeStyle");
    if (required === "time" && dateStyle && !timeStyle) throw new TypeErr("Invalid option : dateStyle");
    if (f.era) throw new Err("Intl: the era option is not available in this sandbox");
    if (f.dayPeriod) throw new Err("Intl: the dayPeriod option is not available in this sandbox");
    if (!dateStyle && !timeStyle) {
      // ECMA-402 ToDateTimeOptions: which fields a bare call shows.
      const noDate = !f.weekday && !f.year && !f.month && !f.day;
      const noTime = !f.hour && !f.minute && !f.second && !f.fractionalSecondDigits;
      const need = required === "date" ? noDate : required === "time" ? noTime : noDate && noTime;
      if (need && (defaults === "date" || defaults === "all")) f.year = f.month = f.day = "numeric";
      if (need && (defaults === "time" || defaults === "all")) f.hour = f.minute = f.second = "numeric";
    }
    const names = data(locale, "names");
    const stylesD = data(locale, "styles");
    const localeH12 = /[hK]/.test(stylesD.time[3].replace(/'[^']*'/g, ""));
    let use12 = hour12 !== undefined ? hour12 : hc ? hc === "h11" || hc === "h12" : ext.hc ? ext.hc === "h11" || ext.hc === "h12" : localeH12;
    r.hourCycle = use12 ? names.h12 === "K" ? "h11" : "h12" : "h23";
    let pattern;
    if (dateStyle || timeStyle) {
      const di = STYLES.indexOf(dateStyle), ti = STYLES.indexOf(timeStyle);
      let tp;
      if (timeStyle) {
        tp = stylesD.time[ti];
        if (use12 !== localeH12) {
          const k = (use12 ? "h" : "H") + "m" + (ti < 3 ? "s" : "") + (ti === 0 ? "zzzz" : ti === 1 ? "z" : "");
          tp = resolveTime(data(locale, "times"), k);
        }
      }
      pattern = dateStyle && timeStyle ? stylesD.both[di].replace("{1}", () => stylesD.date[di]).replace("{0}", () => tp) : dateStyle ? stylesD.date[di] : tp;
      r.dateStyle = dateStyle; r.timeStyle = timeStyle;
    } else {
      const dk = (f.weekday ? { short: "EEE", long: "EEEE", narrow: "EEEEE" }[f.weekday] : "") + (f.year ? { numeric: "y", "2-digit": "yy" }[f.year] : "") +
        (f.month ? { numeric: "M", "2-digit": "MM", short: "MMM", long: "MMMM", narrow: "MMMMM" }[f.month] : "") + (f.day ? { numeric: "d", "2-digit": "dd" }[f.day] : "");
      const tk = (f.hour ? (use12 ? "h" : "H").repeat(f.hour === "2-digit" ? 2 : 1) : "") + (f.minute ? "m".repeat(f.minute === "2-digit" ? 2 : 1) : "") +
        (f.second ? "s".repeat(f.second === "2-digit" ? 2 : 1) : "") + (f.fractionalSecondDigits ? "S".repeat(f.fractionalSecondDigits) : "") + (f.timeZoneName ? TZ_LETTER[f.timeZoneName] : "");
      const dates = data(locale, "dates");
      const dp = dk ? dates.exc[dk] ?? (dates.base[dateBase(dk)] !== undefined ? widen(dates.base[dateBase(dk)], dk) : undefined) : "";
      let tp = "";
      if (tk) {
        const times = data(locale, "times");
        tp = TZRE.test(tk) && TZRE.exec(tk)[1] === tk ? tk : resolveTime(times, tk); // a zone alone is its own pattern
        if (tp === undefined && !/^[hH]/.test(tk)) {
          // Fields ICU joins without an hour: minutes and seconds, then a zone.
          const m = TZRE.exec(tk), core = m ? tk.slice(0, -m[1].length) : tk;
          const base = resolveTime(times, core.replace(/S+$/, ""));
          if (base !== undefined && !/S/.test(core)) tp = base + (m ? " " + m[1] : "");
        }
      }
      if (dp === undefined || tp === undefined) throw new Err("Intl: this combination of date and time fields is not available in this sandbox");
      if (dk && !tk) pattern = dp;
      else if (tk && !dk) pattern = tp;
      else {
        const cls = f.month === "long" ? (f.weekday === "long" ? 0 : 1) : f.month === "short" || f.month === "narrow" ? 2 : 3;
        const glue = stylesD.skel[cls];
        pattern = glue.replace("{1}", () => dp).replace("{0}", () => tp);
      }
      Object.assign(r, f);
    }
    if (!/[hHkK]/.test(pattern.replace(/'[^']*'/g, ""))) delete r.hourCycle;
    r.pattern = pattern;
    r.tokens = tokenize(pattern);
    r.zone = z;
    r.names = names;
    r.hour12 = r.hourCycle ? r.hourCycle === "h11" || r.hourCycle === "h12" : undefined;
    dtfSlots.set(self, r);
  };
  const tokenize = (p) => {
    const out = [];
    let lit = "";
    for (let i = 0; i < p.length;) {
      const c = p[i];
      if (c === "'") {
        if (p[i + 1] === "'") { lit += "'"; i += 2; continue; }
        const j = p.indexOf("'", i + 1);
        lit += p.slice(i + 1, j < 0 ? p.length : j).replace(/''/g, "'");
        i = j < 0 ? p.length : j + 1;
        continue;
      }
      if (/[A-Za-z]/.test(c)) {
        let j = i; while (p[j] === c) j++;
        if (lit) { out.push(lit); lit = ""; }
        out.push([c, j - i]);
        i = j;
        continue;
      }
      lit += c; i++;
    }
    if (lit) out.push(lit);
    return out;
  };
  const pad = (n, w) => str(n).padStart(w, "0");
  const zoneName = (r, letter, n, ms, off) => {
    const zd = data(r.locale, "zones");
    const gmt = (long) => {
      const P = zd.gmt[0].slice(0, -2), minus = zd.gmt[0].slice(-2, -1);
      if (off === 0) return zd.gmt[4];
      const h = floor(abs(off) / 3600), m = floor((abs(off) % 3600) / 60), s = abs(off) % 60;
      const sign = off < 0 ? minus : "+";
      if (long) return P + sign + pad(h, 2) + ":" + pad(m, 2) + (s ? ":" + pad(s, 2) : "");
      return P + sign + h + (m || s ? ":" + pad(m, 2) : "") + (s ? ":" + pad(s, 2) : "");
    };
    if (letter === "O") return gmt(n === 4);
    if (letter === "v") throw new Err("Intl: generic time zone names (shortGeneric, longGeneric) are not available in this sandbox");
    const id = r.zone.id;
    const names = zd.names[id];
    if (!names) {
      if (r.zone.fixed && /^[+-]/.test(id)) return gmt(n === 4);
      throw new Err(`Intl: the ${n === 4 ? "long" : "short"} name of time zone ${id} is not available in this sandbox; use timeZoneName "shortOffset" or "longOffset"`);
    }
    const y = new Date(ms).getUTCFullYear();
    const jan = r.zone.offsetAt(Date.UTC(y, 0, 1)), jul = r.zone.offsetAt(Date.UTC(y, 6, 1));
    const dst = jan !== jul && off === Math.max(jan, jul) && id !== "Europe/Dublin" ? 1 : 0;
    const v = names[(n === 4 ? 2 : 0) + dst];
    return v === 0 ? gmt(n === 4) : v;
  };
  const TYPE = { G: "era", y: "year", M: "month", L: "month", d: "day", E: "weekday", c: "weekday", a: "dayPeriod", h: "hour", H: "hour", K: "hour", k: "hour",
    m: "minute", s: "second", S: "fractionalSecond", z: "timeZoneName", O: "timeZoneName", v: "timeZoneName" };
  const formatDateParts = (r, date) => {
    let ms = date === undefined ? Date.now() : Number(date);
    if (typeof date === "object" && date !== null && !(date instanceof Date)) ms = Number(date);
    if (!isFinite(ms) || abs(ms) > 8.64e15) throw new Err("Invalid time value");
    ms = Math.trunc(ms);
    const off = r.zone.offsetAt(ms);
    const t = new Date(ms + off * 1000);
    const Y = t.getUTCFullYear(), Mo = t.getUTCMonth(), D = t.getUTCDate(), W = t.getUTCDay(), H = t.getUTCHours(), Mi = t.getUTCMinutes(), S = t.getUTCSeconds(), MS = t.getUTCMilliseconds();
    const nm = r.names;
    const out = [];
    for (const tok of r.tokens) {
      if (typeof tok === "string") { out.push({ type: "literal", value: tok }); continue; }
      const [c, n] = tok;
      let v;
      switch (c) {
        case "G": v = nm.G[n === 4 ? 1 : n === 5 ? 2 : 0]; break;
        case "y": v = n === 2 ? pad(Y % 100, 2) : str(Y); break;
        case "M": case "L": v = n <= 2 ? pad(Mo + 1, n) : nm[c][n === 3 ? 0 : n === 4 ? 1 : 2][Mo]; break;
        case "d": v = pad(D, n); break;
        case "E": case "c": v = nm[c][n <= 3 ? 0 : n === 4 ? 1 : 2][W]; break;
        case "a": v = nm.a[H < 12 ? 0 : 1]; break;
        case "h": v = pad(H % 12 || 12, n); break;
        case "K": v = pad(H % 12, n); break;
        case "H": v = pad(H, n); break;
        case "k": v = pad(H || 24, n); break;
        case "m": v = pad(Mi, n); break;
        case "s": v = pad(S, n); break;
        case "S": v = pad(MS, 3).slice(0, n); break;
        case "z": case "O": case "v": v = zoneName(r, c, n, ms, off); break;
        default: throw new Err("Intl: pattern letter " + c + " is not available");
      }
      out.push({ type: TYPE[c], value: v });
    }
    return out;
  };
  Object.defineProperties(DateTimeFormat.prototype, {
    // Like V8, format writes U+202F (before AM and PM) as a plain space;
    // formatToParts keeps it.
    format: { get() { slot(dtfSlots, this, "get Intl.DateTimeFormat.prototype.format"); return boundFormat(dtfSlots, this, (r, d) => join(formatDateParts(r, d)).replace(/\u202f/g, " ")); }, configurable: true },
  });
  define(DateTimeFormat.prototype, "formatToParts", function formatToParts(d) { return formatDateParts(slot(dtfSlots, this, "Intl.DateTimeFormat.prototype.formatToParts"), d); });
  define(DateTimeFormat.prototype, "resolvedOptions", function resolvedOptions() {
    const r = slot(dtfSlots, this, "Intl.DateTimeFormat.prototype.resolvedOptions"), out = { locale: r.shown, calendar: r.calendar, numberingSystem: r.numberingSystem, timeZone: r.timeZone };
    if (r.hourCycle) { out.hourCycle = r.hourCycle; out.hour12 = r.hour12; }
    for (const k of DATE_FIELDS) if (r[k] !== undefined) out[k] = k === "minute" || k === "second" ? (r.hour || k === "second" && r.minute ? "2-digit" : r[k]) : r[k];
    if (r.dateStyle) out.dateStyle = r.dateStyle;
    if (r.timeStyle) out.timeStyle = r.timeStyle;
    return out;
  });
  define(DateTimeFormat.prototype, "formatRange", function formatRange() { throw new Err("Intl: DateTimeFormat.prototype.formatRange is not available in this sandbox"); });

  // ---- Collator ---------------------------------------------------------------
  // An approximation of the CLDR root collation: letters compare first
  // without accents and case, then by accents, then by case (lower first);
  // spaces, punctuation and symbols sort before digits, digits before letters.
  const PUNCT = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
  const SYMBOLS_FROM = PUNCT.indexOf("`");
  const EXPAND = { "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o\u0338", "Ø": "O\u0338", "đ": "d\u0335", "Đ": "D\u0335", "ł": "l\u0337", "Ł": "L\u0337", "ı": "i" };
  const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  // Explicit ranges rather than \p{...}, which goja (the test oracle) lacks:
  // combining marks (kana voicing included), then spaces and punctuation
  // (ignorable with ignorePunctuation), then other symbols.
  const MARK = /[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\u3099\u309a\ufe20-\ufe2f]/;
  const VARIABLE = /[\s\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf\u2010-\u2027\u2030-\u205e\u3000-\u3003\u3008-\u3011\u3014-\u301f\uff01-\uff0f\uff1a-\uff20]/;
  const SYMBOL = /[\u00a2-\u00a9\u00ac-\u00b1\u00b4\u00b8\u00d7\u00f7\u02c2-\u02c5\u02d2-\u02df\u2044\u2052\u207a-\u207c\u20a0-\u20c0\u2100-\u2bff]/;
  const colSlots = new WeakMap();
  function Collator(locales, opts) {
    if (!new.target) return new Collator(locales, opts);
    const { locale, ext, shown } = resolve(locales, ["kn", "kf", "co"]);
    const o = options(opts);
    const usage = opt(o, "usage", ["sort", "search"], "sort");
    opt(o, "localeMatcher", ["lookup", "best fit"]);
    const collation = opt(o, "collation");
    if (collation !== undefined && collation !== "default" && collation !== "standard") throw new Err(`Intl: collation "${clip(collation)}" is not available`);
    let numeric = opt(o, "numeric", "boolean");
    if (numeric === undefined) numeric = ext.kn === "true" || ext.kn === "";
    let caseFirst = opt(o, "caseFirst", ["upper", "lower", "false"]);
    if (caseFirst === undefined) caseFirst = ext.kf && ["upper", "lower", "false"].includes(ext.kf) ? ext.kf : "false";
    const sensitivity = opt(o, "sensitivity", ["base", "accent", "case", "variant"], "variant");
    const ignorePunctuation = opt(o, "ignorePunctuation", "boolean", false);
    const lang = locale.slice(0, 2), kk = lang + numeric + ignorePunctuation;
    if (!KEYS.has(kk)) KEYS.set(kk, new Map());
    colSlots.set(this, { keys: KEYS.get(kk), locale, shown, usage, sensitivity, ignorePunctuation, collation: "default", numeric, caseFirst, lang: locale.slice(0, 2) });
  }
  // keys are [primary, secondary, tertiary] arrays; a primary may carry a
  // number for a run of digits (numeric).
  // keysOf caches a collator's keys by string: a sort compares each string
  // many times, and building its keys is the costly part.
  // Collators that build the same keys share them (localeCompare with options
  // makes a collator per call).
  const KEY_CACHE = 4096;
  const KEYS = new Map();
  const keysOf = (r, s) => {
    s = str(s);
    let k = r.keys.get(s);
    if (k === undefined) {
      k = collKeys(r, s);
      if (r.keys.size >= KEY_CACHE) r.keys.clear();
      r.keys.set(s, k);
    }
    return k;
  };
  // ASCII's weights, once: [primary, variable] by character code.
  const ASCII = [];
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c), k = PUNCT.indexOf(ch);
    ASCII.push(k >= 0 ? [1 + k, k < SYMBOLS_FROM] : c >= 48 && c <= 57 ? [10000 + c - 48, false] : /[A-Za-z]/.test(ch) ? [100000 + ch.toLowerCase().charCodeAt(0), false]
      : /\s/.test(ch) ? [1, true] : [100 + c, true]);
  }
  const collKeys = (r, s) => {
    if ((r.lang === "zh" || r.lang === "ja" || r.lang === "ko") && HAN.test(s)) throw new Err(`Intl: ${r.locale} ordering of Han ideographs is not available in this sandbox`);
    let t = "";
    const expanded = [];
    for (const ch of s) {
      const e = EXPAND[ch];
      if (e) { for (let k = 0; k < e.length; k++) expanded[t.length + k] = 1; t += e; } else t += ch;
    }
    if (!/^[\x00-\x7f]*$/.test(t)) t = t.normalize("NFD");
    const p = [], sec = [], ter = [];
    for (let i = 0; i < t.length; i++) {
      const cp = t.codePointAt(i);
      if (cp < 128 && !(r.numeric && cp >= 48 && cp <= 57)) {
        const w = ASCII[cp];
        if (w[1] && r.ignorePunctuation) continue;
        p.push(w[0]); sec.push(expanded[i] ? 1 : 0); ter.push(cp >= 65 && cp <= 90 ? 1 : 0);
        continue;
      }
      const ch = t[i];
      if (cp > 0xffff) i++;
      if (MARK.test(ch)) {
        if (r.lang === "es" && cp === 0x303 && p.length && (p[p.length - 1] === 100000 + 110)) { p[p.length - 1] += 0.5; continue; }
        if (sec.length) sec[sec.length - 1] = sec[sec.length - 1] * 4096 + cp; else sec.push(cp);
        continue;
      }
      const k = PUNCT.indexOf(ch);
      if (k >= 0 || VARIABLE.test(ch) || SYMBOL.test(ch)) {
        const variable = k >= 0 ? k < SYMBOLS_FROM : VARIABLE.test(ch);
        if (r.ignorePunctuation && variable) continue;
        p.push(k >= 0 ? 1 + k : 100 + cp); sec.push(0); ter.push(0);
        continue;
      }
      if (/\d/.test(ch)) {
        if (r.numeric) {
          let j = i; while (j < t.length && /\d/.test(t[j])) j++;
          const run = t.slice(i, j).replace(/^0+(?=\d)/, "");
          p.push(10000 + run.length * 0.0001, run); sec.push(0, 0); ter.push(0, 0);
          i = j - 1;
          continue;
        }
        p.push(10000 + Number(ch)); sec.push(0); ter.push(0);
        continue;
      }
      let lower = ch.toLowerCase();
      let tert = lower !== ch ? 1 : 0;
      let base = lower.codePointAt(0);
      // Katakana sorts with hiragana, after it (ja does not tell them apart);
      // ko puts Hangul (decomposed to jamo by NFD) before Latin.
      if (base >= 0x30a1 && base <= 0x30f6) { base -= 0x60; if (r.lang !== "ja") tert |= 2; }
      p.push(r.lang === "ko" && base >= 0x1100 && base <= 0x11ff ? 50000 + base : 100000 + base); sec.push(expanded[i] ? 1 : 0); ter.push(tert);
    }
    return [p, sec, ter];
  };
  const cmpArr = (a, b) => {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a[i], y = b[i];
      if (x === y) continue;
      if (typeof x === "string" && typeof y === "string") { if (x.length !== y.length) return x.length < y.length ? -1 : 1; return x < y ? -1 : 1; }
      return x < y ? -1 : 1;
    }
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  };
  const compare = (r, a, b) => {
    const x = keysOf(r, a), y = keysOf(r, b);
    let c = cmpArr(x[0], y[0]);
    if (c || r.sensitivity === "base") return c;
    if (r.sensitivity !== "case") { c = cmpArr(x[1], y[1]); if (c || r.sensitivity === "accent") return c; }
    const flip = r.caseFirst === "upper";
    c = cmpArr(x[2].map((v) => (flip ? (v & 1 ? 0 : 1) | (v & 2) : v)), y[2].map((v) => (flip ? (v & 1 ? 0 : 1) | (v & 2) : v)));
    return c;
  };
  // compare takes two arguments, so it is bound apart from the one-argument formats.
  Object.defineProperty(Collator.prototype, "compare", { get() {
    const r = slot(colSlots, this, "get Intl.Collator.prototype.compare");
    if (!r.bound) r.bound = (a, b) => compare(r, a, b);
    return r.bound;
  }, configurable: true });
  define(Collator.prototype, "resolvedOptions", function resolvedOptions() {
    const r = slot(colSlots, this, "Intl.Collator.prototype.resolvedOptions");
    return { locale: r.shown, usage: r.usage, sensitivity: r.sensitivity, ignorePunctuation: r.ignorePunctuation, collation: r.collation, numeric: r.numeric, caseFirst: r.caseFirst };
  });

  // ---- RelativeTimeFormat --------------------------------------------------------
  const rtfSlots = new WeakMap();
  const REL_UNITS = ["year", "quarter", "month", "week", "day", "hour", "minute", "second"];
  function RelativeTimeFormat(locales, opts) {
    if (!new.target) throw new TypeErr("Constructor Intl.RelativeTimeFormat requires 'new'");
    const { locale, shown } = resolve(locales, ["nu"]);
    const o = options(opts);
    opt(o, "localeMatcher", ["lookup", "best fit"]);
    const nu = opt(o, "numberingSystem");
    if (nu !== undefined && nu !== "latn") throw new Err(`Intl: numbering system "${clip(nu)}" is not available (only latn)`);
    const style = opt(o, "style", ["long", "short", "narrow"], "long"), numeric = opt(o, "numeric", ["always", "auto"], "always");
    rtfSlots.set(this, { locale, shown, style, numeric, numberingSystem: "latn", nf: nfSlots.get(new NumberFormat(locale)) });
  }
  const relParts = (r, value, unit) => {
    const v = Number(value);
    if (!isFinite(v)) throw new Err("Invalid value");
    let u = str(unit);
    if (u.endsWith("s")) u = u.slice(0, -1);
    if (!REL_UNITS.includes(u)) throw new Err(`Invalid unit argument for format() '${clip(unit)}'`);
    const all = data(r.locale, "rel")[u];
    const st = all[r.style] || (r.style === "narrow" ? all.short : undefined) || all.long;
    if (r.numeric === "auto" && st[2][str(v)] !== undefined && !Object.is(v, -0)) return [{ type: "literal", value: st[2][str(v)] }];
    const past = v < 0 || Object.is(v, -0);
    const num = formatNumberParts(r.nf, abs(v));
    const numText = join(num.filter((p) => p.type !== "group")).replace(data(r.locale, "num").dec, ".");
    const [pre, suf] = byCat(st[past ? 1 : 0], plural(r.locale.slice(0, 2), numText, false));
    const out = [];
    if (pre) out.push({ type: "literal", value: pre });
    for (const p of num) out.push({ type: p.type, value: p.value, unit: u });
    if (suf) out.push({ type: "literal", value: suf });
    return out;
  };
  define(RelativeTimeFormat.prototype, "format", function format(v, u) { return join(relParts(slot(rtfSlots, this, "Intl.RelativeTimeFormat.prototype.format"), v, u)); });
  define(RelativeTimeFormat.prototype, "formatToParts", function formatToParts(v, u) { return relParts(slot(rtfSlots, this, "Intl.RelativeTimeFormat.prototype.formatToParts"), v, u); });
  define(RelativeTimeFormat.prototype, "resolvedOptions", function resolvedOptions() {
    const r = slot(rtfSlots, this, "Intl.RelativeTimeFormat.prototype.resolvedOptions");
    return { locale: r.shown, style: r.style, numeric: r.numeric, numberingSystem: r.numberingSystem };
  });

  // ---- ListFormat -----------------------------------------------------------------
  const lfSlots = new WeakMap();
  function ListFormat(locales, opts) {
    if (!new.target) throw new TypeErr("Constructor Intl.ListFormat requires 'new'");
    const { locale, shown } = resolve(locales, []);
    const o = options(opts);
    opt(o, "localeMatcher", ["lookup", "best fit"]);
    const type = opt(o, "type", ["conjunction", "disjunction", "unit"], "conjunction"), style = opt(o, "style", ["long", "short", "narrow"], "long");
    lfSlots.set(this, { locale, shown, type, style });
  }
  const items = (list) => {
    if (list === undefined) return [];
    const out = [];
    for (const x of list) {
      if (typeof x !== "string") throw new TypeErr("Iterable yielded " + (x === null ? "null" : typeof x === "object" ? "object" : str(x)) + " which is not a string");
      if (out.length >= MAX_LIST) throw new Err(`Intl.ListFormat: lists of more than ${MAX_LIST} items are not formatted`);
      out.push(x);
    }
    return out;
  };
  // eachSeparated calls piece(text, isElement) in order; format joins the
  // pieces as they come (a long list builds no part objects).
  const eachSeparated = (r, list, piece) => {
    const xs = items(list), [pair, start, middle, end] = data(r.locale, "list")[r.type + "-" + r.style];
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (i > 0) {
        let s = xs.length === 2 ? pair : i === xs.length - 1 ? end : i === 1 ? start : middle;
        if (r.locale === "es-ES") { // y before an i sound is e, o before an o sound is u
          if (s === " y " && /^(i|hi)(?![aeiouáéíóú])/i.test(x) && !/^hi[aeiou]/i.test(x)) s = " e ";
          if (s === " o " && (/^(o|ho)/i.test(x) || /^8/.test(x) || /^11(\D|$)/.test(x))) s = " u ";
        }
        piece(s, false);
      }
      piece(x, true);
    }
  };
  define(ListFormat.prototype, "format", function format(list) {
    const parts = [];
    eachSeparated(slot(lfSlots, this, "Intl.ListFormat.prototype.format"), list, (s) => { parts.push(s); });
    return parts.join("");
  });
  define(ListFormat.prototype, "formatToParts", function formatToParts(list) {
    const out = [];
    eachSeparated(slot(lfSlots, this, "Intl.ListFormat.prototype.formatToParts"), list, (s, el) => { out.push({ type: el ? "element" : "literal", value: s }); });
    return out;
  });
  define(ListFormat.prototype, "resolvedOptions", function resolvedOptions() {
    const r = slot(lfSlots, this, "Intl.ListFormat.prototype.resolvedOptions");
    return { locale: r.shown, type: r.type, style: r.style };
  });

  // ---- Intl.Locale (the tag, for locale arguments) -------------------------------
  class IntlLocale {
    #c;
    constructor(tag) { this.#c = canonical(tag); }
    toString() { return this.#c.tag; }
    get baseName() { return this.#c.lang + (this.#c.script ? "-" + this.#c.script[0].toUpperCase() + this.#c.script.slice(1) : "") + (this.#c.region ? "-" + this.#c.region : ""); }
    get language() { return this.#c.lang; }
    get region() { return this.#c.region || undefined; }
    maximize() { const m = match(this.#c); return new IntlLocale(m || this.#c.tag); }
  }

  // ---- Intl ------------------------------------------------------------------------
  const Intl = {};
  const ctors = { NumberFormat, DateTimeFormat, Collator, PluralRules, RelativeTimeFormat, ListFormat, Locale: IntlLocale };
  for (const [name, C] of Object.entries(ctors)) {
    define(Intl, name, C);
    Object.defineProperty(C.prototype, Symbol.toStringTag, { value: "Intl." + name, configurable: true });
    if (name !== "Locale") define(C, "supportedLocalesOf", function supportedLocalesOf(locales) { return list(locales).filter((c) => match(c)).map((c) => c.tag); });
  }
  Object.defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });
  define(Intl, "getCanonicalLocales", function getCanonicalLocales(locales) { return [...new Set(list(locales).map((c) => c.tag))]; });
  define(Intl, "supportedValuesOf", function supportedValuesOf(key) {
    switch (str(key)) {
      case "calendar": return ["gregory"];
      case "collation": return ["default"];
      case "currency": return Object.keys(CUR_DIGITS).sort();
      case "numberingSystem": return ["latn"];
      case "timeZone": { return [...zoneIndexed().values()].map((v) => v[0]).filter((n) => n.includes("/") && !/^(Etc|SystemV|US|posix|right)\//.test(n)).sort(); }
      case "unit": return Object.keys(data("en-US", "num").unit).sort();
      default: throw new Err("Invalid key : " + str(key));
    }
  });
  define(g, "Intl", Intl);

  // ---- The toLocale family and localeCompare, through Intl ------------------------
  // One formatter per locale argument when there are no options: a loop of
  // toLocaleString calls does not rebuild it.
  const memo = new Map();
  // With options, each option is read once, in the constructor's order, into
  // a plain object; equal readings share a formatter, so a loop of
  // x.toLocaleString("en-US", { style: "currency", ... }) builds one.
  const READS = {
    n: ["localeMatcher", "numberingSystem", "style", "currency", "currencyDisplay", "currencySign", "unit", "unitDisplay", "notation",
      "minimumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits",
      "roundingIncrement", "roundingMode", "roundingPriority", "trailingZeroDisplay", "compactDisplay", "useGrouping", "signDisplay"],
    d: ["localeMatcher", "calendar", "numberingSystem", "hour12", "hourCycle", "timeZone", "weekday", "era", "year", "month", "day", "dayPeriod",
      "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName", "formatMatcher", "dateStyle", "timeStyle"],
    c: ["usage", "localeMatcher", "collation", "numeric", "caseFirst", "sensitivity", "ignorePunctuation"],
  };
  const cached = (kind, locales, opts, make) => {
    if (locales !== undefined && typeof locales !== "string") return make(opts);
    let k = kind + "|" + (locales === undefined ? "" : locales);
    if (opts !== undefined) {
      if (opts === null) return make(opts);
      const o = Object(opts), read = {};
      let plain = true;
      for (const n of READS[kind[0]]) {
        const v = o[n];
        if (v === undefined) continue;
        read[n] = v;
        if ((typeof v === "object" && v !== null) || typeof v === "function" || typeof v === "symbol") plain = false;
      }
      if (!plain) return make(read);
      k += "|" + JSON.stringify(read);
      opts = read;
    }
    let f = memo.get(k);
    if (!f) { f = make(opts); if (memo.size < 256) memo.set(k, f); }
    return f;
  };
  const numberValue = Number.prototype.valueOf, bigintValue = BigInt.prototype.valueOf, dateValue = Date.prototype.getTime;
  define(Number.prototype, "toLocaleString", function toLocaleString(locales, opts) {
    const x = numberValue.call(this);
    return cached("n", locales, opts, (o) => new NumberFormat(locales, o)).format(x);
  });
  define(BigInt.prototype, "toLocaleString", function toLocaleString(locales, opts) {
    const x = bigintValue.call(this);
    return cached("n", locales, opts, (o) => new NumberFormat(locales, o)).format(x);
  });
  const dateMethod = (name, required, defaults) => define(Date.prototype, name, {
    [name](locales, opts) {
      const t = dateValue.call(this);
      if (isNaN(t)) return "Invalid Date";
      return cached("d" + name, locales, opts, (o) => { const f = Object.create(DateTimeFormat.prototype); init(f, locales, o, required, defaults); return f; }).format(t);
    },
  }[name]);
  dateMethod("toLocaleString", "any", "all");
  dateMethod("toLocaleDateString", "date", "date");
  dateMethod("toLocaleTimeString", "time", "time");
  define(String.prototype, "localeCompare", function localeCompare(that, locales, opts) {
    if (this === undefined || this === null) throw new TypeErr("String.prototype.localeCompare called on null or undefined");
    return cached("c", locales, opts, (o) => new Collator(locales, o)).compare(str(this), str(that));
  });
  define(Array.prototype, "toLocaleString", function toLocaleString(locales, opts) {
    const o = Object(this), n = o.length >>> 0;
    let s = "";
    for (let i = 0; i < n; i++) {
      if (i > 0) s += ",";
      const x = o[i];
      if (x !== undefined && x !== null) s += str(x.toLocaleString(locales, opts));
    }
    return s;
  });
})();
