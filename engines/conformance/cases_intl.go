package conformance

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// intlNode22 is the Intl table: JavaScript expressions and what Node 22
// gives for each, written once by testdata/intl-cases.mjs. An expected
// {"throws": name} is an error of that constructor; the message is Node's
// and only informative.
//
//go:embed testdata/intl-node22.json
var intlNode22 []byte

// intlChunk is how many table cases share one row: enough to keep the table
// short, few enough that a failing row points at its case.
const intlChunk = 10

// intlCases check abi/intl.js: the Node table in rows of intlChunk cases,
// then what the table cannot say (errors of the sandbox's own limits).
func intlCases() []Case {
	var table []struct {
		Src  string          `json:"src"`
		Want json.RawMessage `json:"want"`
	}
	if err := json.Unmarshal(intlNode22, &table); err != nil {
		panic("conformance: testdata/intl-node22.json: " + err.Error())
	}
	var rows []Case
	for i := 0; i < len(table); i += intlChunk {
		end := min(i+intlChunk, len(table))
		var src, want strings.Builder
		src.WriteString("const out = [];\nfor (const f of [\n")
		want.WriteString("[")
		for j, c := range table[i:end] {
			fmt.Fprintf(&src, "  () => (%s),\n", c.Src)
			if j > 0 {
				want.WriteString(",")
			}
			var thrown struct{ Throws string }
			if json.Unmarshal(c.Want, &thrown) == nil && thrown.Throws != "" {
				fmt.Fprintf(&want, `{"throws":%q}`, thrown.Throws)
			} else {
				want.Write(c.Want)
			}
		}
		src.WriteString("]) { try { out.push(f()) } catch (e) { out.push({ throws: e.constructor.name }) } }\nreturn out")
		want.WriteString("]")
		rows = append(rows, ok(fmt.Sprintf("intl/node22 cases %03d-%03d", i+1, end), src.String(), want.String()))
	}
	return append(rows, intlLimitCases()...)
}

// intlLimitCases are where the sandbox says no and Node would not: a locale,
// zone name or date it has no data for throws a RangeError that names it.
func intlLimitCases() []Case {
	return []Case{
		ok("intl/an unknown locale is a RangeError, not en-US", `
const out = [];
for (const f of [() => new Intl.NumberFormat("sw-KE").format(1), () => (5).toLocaleString("de-AT"), () => new Date(0).toLocaleDateString("hi-IN"),
  () => "a".localeCompare("b", "tr"), () => new Intl.Collator("de-u-co-phonebk"), () => new Intl.NumberFormat("ar-EG-u-nu-arab")])
  try { out.push(f()) } catch (e) { out.push(e.name + ": " + e.message.split(" (")[0]) }
return out`, `["RangeError: Intl: locale \"sw-KE\" is not available in this sandbox","RangeError: Intl: locale \"de-AT\" is not available in this sandbox","RangeError: Intl: locale \"hi-IN\" is not available in this sandbox","RangeError: Intl: locale \"tr\" is not available in this sandbox","RangeError: Intl: collation \"phonebk\" is not available","RangeError: Intl: locale \"ar-EG-u-nu-arab\" is not available in this sandbox"]`),
		ok("intl/a zone without names, Han ordering and dates before 1970 say so", `
const out = [];
for (const f of [() => new Date(0).toLocaleString("en-US", { timeZone: "America/Detroit", timeZoneName: "long" }),
  () => new Date(0).toLocaleString("en-US", { timeZone: "America/Detroit", timeZoneName: "shortOffset" }),
  () => ["北京", "上海"].sort(new Intl.Collator("zh-CN").compare), () => new Date(-1).toLocaleString("en-US", { timeZone: "Europe/Paris" }),
  () => new Date(-1).toLocaleString("en-US", { timeZone: "UTC" }), () => new Intl.NumberFormat("en-US", { style: "currency", currency: "XAF" })])
  try { out.push(f()) } catch (e) { out.push(e.name + ": " + e.message.split(";")[0].split(" (")[0]) }
return out`, `["RangeError: Intl: the long name of time zone America/Detroit is not available in this sandbox","12/31/1969, 7:00:00 PM GMT-5","RangeError: Intl: zh-CN ordering of Han ideographs is not available in this sandbox","RangeError: Intl: time zone Europe/Paris before 1970 is not available in this sandbox","12/31/1969, 11:59:59 PM","RangeError: Intl: currency XAF is not available in this sandbox"]`),
		ok("intl/formats are bound and the toLocale family shares them", `
const nf = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const c = new Intl.Collator("en", { numeric: true });
return [[1, 2.5].map(nf.format), ["b10", "b9", "A1"].sort(c.compare), typeof Intl, Object.prototype.toString.call(nf),
  (1234.5).toLocaleString() === new Intl.NumberFormat().format(1234.5), Intl.supportedValuesOf("timeZone").includes("America/New_York")]`,
			`[["$1.00","$2.50"],["A1","b9","b10"],"object","[object Intl.NumberFormat]",true,true]`),
		// Formatters, their parsed data and caches are heap objects: a
		// snapshot carries them, and the restored cell goes on with them.
		{Name: "intl/formatters survive a snapshot", Needs: needSnapshot, Script: []Action{Snapshot(), Resolve(1, `0`)}, Source: `
const when = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeStyle: "short" });
const before = [when.format(Date.UTC(2026, 6, 1, 12)), ["b", "a"].sort((x, y) => x.localeCompare(y))];
await __cm_bridge.request("a", "1");
return [before, when.format(Date.UTC(2026, 0, 1, 12)), (5110).toLocaleString("de-DE"), new Intl.PluralRules("ru-RU").select(3)]`,
			Want: `{"status":"completed","value":[["8:00 AM",["a","b"]],"7:00 AM","5.110","few"]}`},
	}
}
