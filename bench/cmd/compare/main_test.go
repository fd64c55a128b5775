package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	out := []byte("{\"metric\":\"cell_start\",\"ns\":4745212.06,\"iterations\":66}\n{\"metric\":\"snapshot\",\"ns\":1027830.4,\"iterations\":278,\"bytes\":1376284}\n")
	s, err := parseNode(out, "snapshot")
	if err != nil || s.ns != 1027830.4 || s.bytes != 1376284 {
		t.Fatalf("%+v %v", s, err)
	}
	if _, err := parseNode(out, "restore"); err == nil {
		t.Fatal("missing metric: no error")
	}
}

func TestSummarizeAndSchema(t *testing.T) {
	ms := []bench.Metric{metric(t, "snapshot"), metric(t, "catalog_search")}
	data := map[string]*series{
		"snapshot":       {goRuns: []float64{300, 100, 200}, nodeRuns: []float64{1000, 4000, 2000, 3000}, goBytes: []float64{6000}, nodeBytes: []float64{1.2e6}},
		"catalog_search": {goRuns: []float64{5}},
	}
	res := summarize(ms, data)
	s := res["snapshot"]
	if s.GoNS != 200 || s.NodeNS != 2500 || s.Ratio != 12.5 || s.GoBytes != 6000 || s.NodeBytes != 1.2e6 || s.BytesRatio != 200 {
		t.Fatalf("snapshot: %+v", s)
	}
	j, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]map[string]any
	if err := json.Unmarshal(j, &generic); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		slices.Sort(k)
		return k
	}
	if got := strings.Join(keys(generic["catalog_search"]), ","); got != "go_ns,go_runs" {
		t.Errorf("a Go-only metric has %s", got)
	}
	if got := strings.Join(keys(generic["snapshot"]), ","); got != "bytes_ratio,go_bytes,go_ns,go_runs,node_bytes,node_ns,node_runs,ratio" {
		t.Errorf("snapshot has %s", got)
	}
	var table bytes.Buffer
	writeTable(&table, ms, res)
	for _, want := range []string{"| snapshot | 200 ns | 2.5 µs | 12.50× | – | – |", "| snapshot (size) | 6000 B | 1200000 B | 200.00× | ≥ 50× | yes |", "| catalog_search | 5 ns | – | – | – | – |"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
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

// TestHarnessMetricsMatch keeps the Node harness and the metric table in
// step: the harness measures exactly the metrics marked Node.
func TestHarnessMetricsMatch(t *testing.T) {
	node := nodeOrSkip(t)
	out, err := exec.Command(node, filepath.Join(repoRoot(t), "bench/node/harness.mjs"), "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range bench.Metrics {
		if m.Node {
			want = append(want, m.Name)
		}
	}
	if got := strings.Fields(string(out)); !slices.Equal(got, want) {
		t.Fatalf("harness measures %v, the table marks %v", got, want)
	}
}

// TestHarnessSmoke runs every Node metric once against the installed wrapper.
func TestHarnessSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Node")
	}
	node := nodeOrSkip(t)
	root := repoRoot(t)
	pkg := filepath.Join(root, ".cache/bench-node")
	if _, err := os.Stat(filepath.Join(pkg, "node_modules/quickjs-wasi/package.json")); err != nil {
		t.Skip("quickjs-wasi is not installed: run make bench-node")
	}
	out, err := exec.Command(node, filepath.Join(root, "bench/node/harness.mjs"), "--pkg", pkg, "--smoke").Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, m := range bench.Metrics {
		if !m.Node {
			continue
		}
		s, err := parseNode(out, m.Name)
		if err != nil {
			t.Error(err)
		}
		if (m.BytesUnit != "") != (s.bytes > 0) && m.Name == "snapshot" {
			t.Errorf("%s: bytes %v", m.Name, s.bytes)
		}
	}
}
