package conformance_test

import (
	"context"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

// intlCell is what a model's cell does with Intl, a thousand times: money,
// dates in a zone, a sort by localeCompare, in a fresh cell each iteration
// (so the locale data is parsed again, as every new cell does).
const intlCell = `
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const when = new Intl.DateTimeFormat("de-DE", { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Berlin" });
let n = 0;
for (let i = 0; i < 400; i++) n += money.format(i * 13.37).length;
for (let i = 0; i < 400; i++) n += when.format(1767225600000 + i * 3600e3).length;
const files = Array.from({ length: 200 }, (_, i) => (i % 3 ? "File" : "file") + ((i * 7919) % 1000) + ".txt");
files.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
return n + files.length`

// BenchmarkIntl1000Formats is one cell doing about a thousand Intl calls
// (400 numbers, 400 dates, a sort of 200 names); it also reports the
// template's size, which the locale and zone data are part of.
func BenchmarkIntl1000Formats(b *testing.B) {
	e, err := quickjswasi.New(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close(context.Background())
	ctx := context.Background()
	for b.Loop() {
		c, err := e.NewCell(ctx, abi.Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if st := c.Run(ctx, intlCell, "cell.js"); st.Status != abi.StepCompleted {
			b.Fatalf("%+v %v", st, st.Failure)
		}
		c.Close(ctx)
	}
	b.ReportMetric(float64((*driver.Engine)(e).TemplateBytes()), "template-bytes")
}

// BenchmarkIntlFirstFormat is a fresh cell's first Intl call: parsing one
// locale's number data and one zone.
func BenchmarkIntlFirstFormat(b *testing.B) {
	e, err := quickjswasi.New(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close(context.Background())
	ctx := context.Background()
	for b.Loop() {
		c, err := e.NewCell(ctx, abi.Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if st := c.Run(ctx, `return new Date(0).toLocaleString("en-US", { timeZone: "America/New_York" })`, "cell.js"); st.Status != abi.StepCompleted {
			b.Fatalf("%+v", st)
		}
		c.Close(ctx)
	}
}
