package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/bench"
)

func metric(t *testing.T, name string) bench.Metric {
	t.Helper()
	m, ok := bench.Lookup(name)
	if !ok {
		t.Fatalf("no metric %s", name)
	}
	return m
}

func TestParseGo(t *testing.T) {
	out := []byte(`goos: linux
BenchmarkSnapshot/goja-2                 	     100	     1 ns/op
BenchmarkSnapshot/quickjswasi-wazero-2   	     786	   1443032 ns/op	      6831 bytes/snapshot
BenchmarkHostCall/quickjswasi-wazero     	       8	  19662180 ns/op	      1978 ns/call
PASS
`)
	s, err := parseGo(out, "BenchmarkSnapshot/quickjswasi-wazero", metric(t, "snapshot"))
	if err != nil || s.ns != 1443032 || s.bytes != 6831 {
		t.Fatalf("snapshot: %+v %v", s, err)
	}
	s, err = parseGo(out, "BenchmarkHostCall/quickjswasi-wazero", metric(t, "host_call"))
	if err != nil || s.ns != 1978 || s.bytes != 0 {
		t.Fatalf("host_call (per call, no GOMAXPROCS suffix): %+v %v", s, err)
	}
	if _, err := parseGo(out, "BenchmarkSnapshot/quickjswasi", metric(t, "snapshot")); err == nil {
		t.Fatal("a prefix of a sub-benchmark name matched")
	}
	if _, err := parseGo(out, "BenchmarkRestore/quickjswasi-wazero", metric(t, "restore")); err == nil {
		t.Fatal("missing benchmark: no error")
	}
}

func TestParseNode(t *testing.T) {
	out := []byte(`{"peer":"quickjs-wasi","version":"3.7.0","metric":"cell_start","ns":4745212.06,"iterations":66}
{"peer":"monty","version":"0.0.18","metric":"snapshot","ns":16000.5,"iterations":278,"bytes":860}
{"peer":"quickjs-wasi","version":"3.7.0","metric":"snapshot","ns":1027830.4,"iterations":278,"bytes":1376284}
`)
	s, err := parseNode(out, "quickjs-wasi", "snapshot")
	if err != nil || s.ns != 1027830.4 || s.bytes != 1376284 || s.version != "3.7.0" {
		t.Fatalf("%+v %v", s, err)
	}
	if s, err := parseNode(out, "monty", "snapshot"); err != nil || s.bytes != 860 {
		t.Fatalf("monty: %+v %v", s, err)
	}
	if _, err := parseNode(out, "quickjs-wasi", "restore"); err == nil {
		t.Fatal("missing metric: no error")
	}
	if _, err := parseNode(out, "monty", "cell_start"); err == nil {
		t.Fatal("another peer's metric matched")
	}
}

func comparison(t *testing.T, key string) bench.Comparison {
	t.Helper()
	for _, c := range bench.Comparisons {
		if c.Key() == key {
			return c
		}
	}
	t.Fatalf("no comparison %s", key)
	return bench.Comparison{}
}

// summarized is a run of three Go metrics against two peers.
func summarized(t *testing.T) ([]bench.Metric, []bench.Comparison, *Output) {
	ms := []bench.Metric{metric(t, "snapshot"), metric(t, "eval_small"), metric(t, "catalog_search")}
	cs := []bench.Comparison{comparison(t, "quickjs-wasi/snapshot"), comparison(t, "quickjs-wasi/snapshot/bytes"),
		comparison(t, "monty/snapshot/bytes"), comparison(t, "monty/cell")}
	data := map[string]*series{
		"snapshot":              {runs: []float64{300, 100, 200}, bytes: []float64{6000}},
		"quickjs-wasi/snapshot": {runs: []float64{1000, 4000, 2000, 3000}, bytes: []float64{1.2e6}, version: "3.7.0"},
		"monty/snapshot":        {runs: []float64{50}, bytes: []float64{1000}, version: "0.0.18"},
		"eval_small":            {runs: []float64{90}},
		"monty/cell":            {runs: []float64{30}},
		"catalog_search":        {runs: []float64{5}},
	}
	return ms, cs, summarize(ms, cs, data)
}

func TestSummarizeAndSchema(t *testing.T) {
	ms, cs, out := summarized(t)
	if g := out.Go["snapshot"]; g.NS != 200 || g.Bytes != 6000 {
		t.Fatalf("go snapshot: %+v", g)
	}
	if p := out.Peers["quickjs-wasi"]["snapshot"]; p.NS != 2500 || p.Bytes != 1.2e6 || p.Version != "3.7.0" {
		t.Fatalf("peer snapshot: %+v", p)
	}
	for key, want := range map[string]struct {
		ratio float64
		met   string
	}{
		"quickjs-wasi/snapshot":       {12.5, "none"},
		"quickjs-wasi/snapshot/bytes": {200, "true"},
		"monty/snapshot/bytes":        {0.167, "false"},
		"monty/cell":                  {0.333, "true"}, // exactly 3x: met, though the stored ratio is rounded below 1/3
	} {
		r := out.Ratios[key]
		met := "none"
		if r.Met != nil {
			met = strconv.FormatBool(*r.Met)
		}
		if r.Ratio != want.ratio || met != want.met {
			t.Errorf("%s: ratio %v met %s, want %v %s", key, r.Ratio, met, want.ratio, want.met)
		}
	}
	j, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(j, &generic); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range generic {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if got := strings.Join(keys, ","); got != "conditions,go,peers,ratios" {
		t.Errorf("top-level keys %s", got)
	}
	var table bytes.Buffer
	writeTable(&table, cs, out)
	writeGoOnly(&table, ms, cs, out)
	for _, want := range []string{
		"| snapshot | 200 ns | quickjs-wasi@3.7.0: snapshot | 2.5 µs | 12.5× | – | – |",
		"| snapshot (size) | 6000 B | quickjs-wasi@3.7.0: snapshot | 1200000 B | 200× | ≥ 150× | pass |",
		"| snapshot (size) | 6000 B | monty@0.0.18: snapshot | 1000 B | 0.167× | ≥ 0.25× (≤ 4× its bytes) | **miss** |",
		"| eval_small | 90 ns | monty: cell | 30 ns | 0.333× | ≥ 0.333× (≤ 3× its time) | pass |",
		"| catalog_search | 5 ns | 200000000 |",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

// TestPairedRatio: a burst of load in one round moves that round's samples
// on both sides, and the ratio of the round stays an outlier of the
// median, where the medians of each side alone would move.
func TestPairedRatio(t *testing.T) {
	goRuns := []float64{1200, 1200, 1200, 1700, 2500}
	peer := []float64{900, 870, 44000, 1700, 1600}
	if got := pairedRatio(peer, goRuns); got != 0.75 {
		t.Errorf("paired: %v, want 0.75 (900/1200)", got)
	}
	if got := median(peer) / median(goRuns); got < 1.3 {
		t.Errorf("the medians' ratio was meant to differ: %v", got)
	}
	for _, tc := range []struct {
		num, den []float64
		want     float64
	}{
		{nil, []float64{1}, 0},
		{[]float64{4, 8}, []float64{2}, 3},
		{[]float64{4, 0}, []float64{2, 2}, 0},
	} {
		if got := pairedRatio(tc.num, tc.den); got != tc.want {
			t.Errorf("pairedRatio(%v, %v) = %v, want %v", tc.num, tc.den, got, tc.want)
		}
	}
}

func TestGroups(t *testing.T) {
	ms := []bench.Metric{metric(t, "eval_small"), metric(t, "snapshot"), metric(t, "catalog_search")}
	var got []string
	for _, g := range groups(ms, bench.Comparisons) {
		var keys []string
		for _, j := range g {
			keys = append(keys, j.key())
		}
		got = append(got, strings.Join(keys, " "))
	}
	want := []string{
		"eval_small quickjs-wasi/eval_small monty/cell quickjs-emscripten/eval_live quickjs-emscripten/new_context_eval",
		"snapshot quickjs-wasi/snapshot monty/snapshot", // one measurement gives both time and size
		"catalog_search",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheck is bench-check's rule: a ratio more than the tolerance below its
// baseline fails; above, level, or within it passes; a ratio the run did
// not measure is reported and does not fail.
func TestCheck(t *testing.T) {
	base := &Output{Ratios: map[string]Ratio{"a": {Ratio: 100}, "b": {Ratio: 1}, "c": {Ratio: 2}}}
	for _, tc := range []struct {
		now  map[string]Ratio
		pass bool
	}{
		{map[string]Ratio{"a": {Ratio: 100}, "b": {Ratio: 1}, "c": {Ratio: 2}}, true},
		{map[string]Ratio{"a": {Ratio: 86}, "b": {Ratio: 5}, "c": {Ratio: 1.71}}, true},
		{map[string]Ratio{"a": {Ratio: 84.9}, "b": {Ratio: 1}, "c": {Ratio: 2}}, false},
		{map[string]Ratio{"a": {Ratio: 100}, "b": {Ratio: 0.5}}, false},
		{map[string]Ratio{"a": {Ratio: 100}}, true},
	} {
		var w bytes.Buffer
		if got := check(&w, base, &Output{Ratios: tc.now}, 0.15); got != tc.pass {
			t.Errorf("%v: pass %v, want %v\n%s", tc.now, got, tc.pass, w.String())
		}
	}
	base.Conditions.LoadBefore = "1.10 1.00 0.90"
	for load, busier := range map[string]bool{"1.90 1 1": false, "2.50 1 1": true, "": false, "unknown": false} {
		var w bytes.Buffer
		check(&w, base, &Output{Conditions: Conditions{LoadBefore: load}, Ratios: base.Ratios}, 0.15)
		if got := strings.Contains(w.String(), "busier"); got != busier {
			t.Errorf("load %q: busier note %v, want %v", load, got, busier)
		}
	}
}

// TestBaselineIsReadable keeps the committed baseline in the schema
// bench-check reads, with a ratio for every comparison.
func TestBaselineIsReadable(t *testing.T) {
	base, err := readOutput(filepath.Join(repoRoot(t), "bench/results/baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range bench.Comparisons {
		if r, ok := base.Ratios[c.Key()]; !ok || r.Ratio <= 0 {
			t.Errorf("baseline has no ratio for %s", c.Key())
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestUnknownMetric(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"-metrics", "nope"}, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "nope") {
		t.Fatalf("code %d: %s", code, stderr.String())
	}
}

// repoRoot is the module root, two directories up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	return node
}

// peerMetrics returns the "peer metric" pairs the comparisons need.
func peerMetrics() []string {
	var out []string
	for _, c := range bench.Comparisons {
		if k := c.Peer + " " + c.PeerMetric; !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestHarnessMetricsMatch keeps the Node harness and the comparison table in
// step: the harness measures exactly the peer metrics the table compares.
func TestHarnessMetricsMatch(t *testing.T) {
	node := nodeOrSkip(t)
	out, err := exec.Command(node, filepath.Join(repoRoot(t), "bench/node/harness.mjs"), "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	slices.Sort(got)
	if want := peerMetrics(); !slices.Equal(got, want) {
		t.Fatalf("harness measures %v, the table compares %v", got, want)
	}
}

// TestHarnessSmoke runs every metric of every installed peer once.
func TestHarnessSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Node")
	}
	node := nodeOrSkip(t)
	root := repoRoot(t)
	pkg := filepath.Join(root, ".cache/bench-node")
	for _, p := range bench.Peers {
		t.Run(p.Name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(pkg, "node_modules", p.Package, "package.json")); err != nil {
				t.Skipf("%s is not installed: run make bench-node", p.Package)
			}
			out, err := exec.Command(node, filepath.Join(root, "bench/node/harness.mjs"), "--pkg", pkg, "--peer", p.Name, "--smoke").Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, c := range bench.Comparisons {
				if c.Peer != p.Name {
					continue
				}
				s, err := parseNode(out, c.Peer, c.PeerMetric)
				if err != nil {
					t.Error(err)
				}
				if c.Bytes && s.bytes <= 0 {
					t.Errorf("%s: no size", c.Key())
				}
			}
		})
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-peers", "v8"}, 2, `unknown peer "v8"`},
		{[]string{"-peers", "none", "-metrics", "catalog_search", "-baseline", "/nonexistent/baseline.json"}, 1, "baseline"},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), tc.args, &bytes.Buffer{}, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: code %d: %s", tc.args, code, stderr.String())
		}
	}
}
