// Package bench holds the side-by-side benchmarks of codemode against peers
// run by Node: the official JavaScript wrapper of the same engine
// (quickjs-wasi), @pydantic/monty and quickjs-emscripten.
//
// Each metric has one Go benchmark body; the engine is chosen by
// sub-benchmark (see engines_test.go): quickjswasi-wazero always, goja where
// the metric applies, and any engine a build tag adds. The Node harness in
// bench/node measures each peer's side of a [Comparison], and
// bench/cmd/compare (make bench-compare) runs all sides interleaved, prints
// every ratio against its target and writes bench/results/latest.json. The
// package has no code of its own beyond these tables; the benchmarks live in
// _test.go files so that the goja oracle is never linked into a binary.
package bench

import _ "embed"

// Metric is one Go benchmark of the comparison.
type Metric struct {
	// Name is the snake_case name of the metric in the table and in
	// bench/results/latest.json.
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
	// What says what one operation is.
	What string
}

// Metrics lists every Go metric in the order of the comparison table.
var Metrics = []Metric{
	{Name: "cell_start", Bench: "BenchmarkCellStart", PerEngine: true, Unit: "ns/op",
		What: "NewCell + Close (a pooled instance reset to the template)"},
	{Name: "eval_small", Bench: "BenchmarkEvalSmall", PerEngine: true, Unit: "ns/op",
		What: "a whole cell (start, run a 100-iteration loop, JSON result, close)"},
	{Name: "host_call", Bench: "BenchmarkHostCall", PerEngine: true, Unit: "ns/call",
		What: "one synchronous guest-to-host call with two string arguments, in a loop of 10,000"},
	{Name: "host_round_trip", Bench: "BenchmarkHostRoundTrip", PerEngine: true, Unit: "ns/op",
		What: "settle a pending host request, drain jobs, until the guest's next request"},
	{Name: "snapshot", Bench: "BenchmarkSnapshot", PerEngine: true, Unit: "ns/op", BytesUnit: "bytes/snapshot",
		What: "Cell.Snapshot (the stored image) of a cell waiting on two host requests"},
	{Name: "restore", Bench: "BenchmarkRestore", PerEngine: true, Unit: "ns/op",
		What: "that snapshot back into a usable cell, then close"},
	{Name: "restore_resume", Bench: "BenchmarkRestoreResume", PerEngine: true, Unit: "ns/op",
		What: "that snapshot restored and resumed to its end (both requests settled, result read), then close"},
	{Name: "template_start", Bench: "BenchmarkTemplateStart", PerEngine: true, Unit: "ns/op",
		What: "NewCell + Close on an engine whose template holds 200 tool objects"},
	{Name: "exec_trivial", Bench: "BenchmarkExecTrivial", PerEngine: true, Unit: "ns/op",
		What: "host.Run.Exec of `return 1` (config, catalog, cell, result)"},
	{Name: "exec_wait", Bench: "BenchmarkExecWait", PerEngine: true, Unit: "ns/op",
		What: "host.Run.Exec of a cell that yields (status waiting), then Run.Wait to its result"},
	{Name: "nested_calls", Bench: "BenchmarkNestedCalls", PerEngine: true, Unit: "ns/call",
		What: "one of 1,000 awaited tools.callValue calls to an in-process tool, inside one exec"},
	{Name: "catalog_search", Bench: "BenchmarkCatalogSearch", Unit: "ns/op",
		What: "one catalog search over 10,000 tools"},
}

// Peer is a program the Node harness drives beside codemode; its package
// is installed, pinned, by make bench-node.
type Peer struct {
	// Name is the harness's --peer and the prefix of the comparison keys.
	Name string
	// Package is the npm package (its version is pinned in the Makefile).
	Package string
}

// Peers lists the peers in the order of the table.
var Peers = []Peer{
	{Name: "quickjs-wasi", Package: "quickjs-wasi"},
	{Name: "monty", Package: "@pydantic/monty"},
	{Name: "quickjs-emscripten", Package: "quickjs-emscripten"},
}

// Comparison is one ratio of the table: a Go metric against one peer's
// measurement of the equivalent operation. The ratio is peer/Go, of time or
// of bytes: above 1, codemode is faster or smaller.
type Comparison struct {
	Metric     string // the Go metric
	Peer       string
	PeerMetric string // the harness's metric of that peer
	Bytes      bool   // compare sizes, not times
	// MinRatio is the target (zero: none). Below 1 it reads "codemode at
	// most 1/MinRatio times the peer's".
	MinRatio float64
	// What says what the peer does in one operation.
	What string
}

// Key names the comparison in bench/results/*.json and in bench-check.
func (c Comparison) Key() string {
	k := c.Peer + "/" + c.PeerMetric
	if c.Bytes {
		k += "/bytes"
	}
	return k
}

// Comparisons lists every ratio the table prints, grouped by peer.
var Comparisons = []Comparison{
	{Metric: "cell_start", Peer: "quickjs-wasi", PeerMetric: "cell_start", MinRatio: 100,
		What: "QuickJS.create from a compiled module + dispose"},
	{Metric: "eval_small", Peer: "quickjs-wasi", PeerMetric: "eval_small", MinRatio: 0.5,
		What: "evalCode of the loop in a live VM"},
	{Metric: "host_call", Peer: "quickjs-wasi", PeerMetric: "host_call", MinRatio: 1,
		What: "a host function made with newFunction, in the same loop"},
	{Metric: "host_round_trip", Peer: "quickjs-wasi", PeerMetric: "host_round_trip", MinRatio: 1,
		What: "resolve the pending promise, executePendingJobs, until the next request"},
	{Metric: "snapshot", Peer: "quickjs-wasi", PeerMetric: "snapshot",
		What: "vm.snapshot + serializeSnapshot of the same suspended VM"},
	{Metric: "snapshot", Peer: "quickjs-wasi", PeerMetric: "snapshot", Bytes: true, MinRatio: 150,
		What: "the serialized snapshot's bytes"},
	{Metric: "restore", Peer: "quickjs-wasi", PeerMetric: "restore", MinRatio: 25,
		What: "deserializeSnapshot + QuickJS.restore + registerHostCallback + dispose"},
	{Metric: "template_start", Peer: "quickjs-wasi", PeerMetric: "template_start",
		What: "QuickJS.restore of a snapshot of a VM holding the 200 tool objects"},

	{Metric: "eval_small", Peer: "monty", PeerMetric: "cell", MinRatio: 1.0 / 3,
		What: "a whole small cell: new Monty(the loop in Python) + run"},
	{Metric: "snapshot", Peer: "monty", PeerMetric: "snapshot",
		What: "dump of the Python twin of the two-request cell, paused at its first request"},
	{Metric: "snapshot", Peer: "monty", PeerMetric: "snapshot", Bytes: true, MinRatio: 0.25,
		What: "that dump's bytes"},
	{Metric: "restore_resume", Peer: "monty", PeerMetric: "restore", MinRatio: 1.0 / 3,
		What: "MontySnapshot.load of that dump + resume with both answers to the result"},

	{Metric: "eval_small", Peer: "quickjs-emscripten", PeerMetric: "eval_live",
		What: "evalCode of the loop in a live context"},
	{Metric: "eval_small", Peer: "quickjs-emscripten", PeerMetric: "new_context_eval",
		What: "a fresh runtime and context, evalCode of the loop, dispose"},
	{Metric: "host_call", Peer: "quickjs-emscripten", PeerMetric: "host_call",
		What: "a host function made with newFunction, in the same loop"},
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
