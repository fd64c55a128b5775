// Package bench holds the side-by-side benchmarks of codemode against the
// official Node.js wrapper of the same engine (quickjs-wasi).
//
// Each metric has one Go benchmark body; the engine is chosen by
// sub-benchmark (see engines_test.go): quickjswasi-wazero always, goja where
// the metric applies, and any engine a build tag adds. The Node harness in
// bench/node measures the same operations under the same metric names, and
// bench/cmd/compare (make bench-compare) runs both sides interleaved and
// writes bench/results/latest.json. The package has no code of its own
// beyond this table; the benchmarks live in _test.go files so that the goja
// oracle is never linked into a binary.
package bench

import _ "embed"

// Metric is one row of the comparison.
type Metric struct {
	// Name is the snake_case name shared with bench/node/harness.mjs and the
	// keys of bench/results/latest.json.
	Name string
	// Bench is the Go benchmark function; engine-dependent metrics have one
	// sub-benchmark per engine.
	Bench string
	// PerEngine is false for metrics that do not run a guest (catalog search).
	PerEngine bool
	// Unit is the go test unit the comparison reads as nanoseconds per
	// operation: "ns/op", or a custom per-call unit reported with
	// b.ReportMetric.
	Unit string
	// BytesUnit, when set, is a custom unit carrying a size in bytes.
	BytesUnit string
	// Node is true when the Node harness measures the metric too.
	Node bool
	// MinRatio is the target for Node/Go (time, or bytes when ByBytes); zero
	// means no target.
	MinRatio float64
	ByBytes  bool
	// What says what one operation is, on each side.
	What string
}

// Metrics lists every metric in the order of the comparison table.
var Metrics = []Metric{
	{Name: "cell_start", Bench: "BenchmarkCellStart", PerEngine: true, Unit: "ns/op", Node: true, MinRatio: 8,
		What: "Go: NewCell + Close (a pooled instance reset to the template); Node: QuickJS.create from a compiled module + dispose"},
	{Name: "eval_small", Bench: "BenchmarkEvalSmall", PerEngine: true, Unit: "ns/op", Node: true,
		What: "a 100-iteration loop; Go: a whole cell (start, run, JSON result, close); Node: evalCode in a live VM"},
	{Name: "host_call", Bench: "BenchmarkHostCall", PerEngine: true, Unit: "ns/call", Node: true, MinRatio: 0.8,
		What: "one synchronous guest-to-host call with two string arguments, in a loop of 10,000"},
	{Name: "host_round_trip", Bench: "BenchmarkHostRoundTrip", PerEngine: true, Unit: "ns/op", Node: true, MinRatio: 0.8,
		What: "settle a pending host request, drain jobs, until the guest's next request"},
	{Name: "snapshot", Bench: "BenchmarkSnapshot", PerEngine: true, Unit: "ns/op", BytesUnit: "bytes/snapshot", Node: true, MinRatio: 50, ByBytes: true,
		What: "a cell waiting on two host requests; Go: Cell.Snapshot (stored image); Node: vm.snapshot + serializeSnapshot"},
	{Name: "restore", Bench: "BenchmarkRestore", PerEngine: true, Unit: "ns/op", Node: true, MinRatio: 4,
		What: "that snapshot back into a usable VM, then close; Node: deserializeSnapshot + QuickJS.restore + registerHostCallback"},
	{Name: "template_start", Bench: "BenchmarkTemplateStart", PerEngine: true, Unit: "ns/op", Node: true,
		What: "start a VM whose template holds 200 tool objects; Go: NewCell + Close; Node: QuickJS.restore of that VM's snapshot"},
	{Name: "exec_trivial", Bench: "BenchmarkExecTrivial", PerEngine: true, Unit: "ns/op",
		What: "host.Run.Exec of `return 1` (config, catalog, cell, result)"},
	{Name: "nested_calls", Bench: "BenchmarkNestedCalls", PerEngine: true, Unit: "ns/call",
		What: "one of 1,000 awaited tools.callValue calls to an in-process tool, inside one exec"},
	{Name: "catalog_search", Bench: "BenchmarkCatalogSearch", Unit: "ns/op",
		What: "one catalog search over 10,000 tools"},
}

// Lookup returns the metric with the given name.
func Lookup(name string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// Guest sources shared with the Node harness, so both sides run the same JS.
var (
	//go:embed node/cells/two_tickets.js
	TwoTicketsJS string
	//go:embed node/cells/tools200.js
	Tools200JS string
)
