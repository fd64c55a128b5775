// Command compare runs the Go benchmarks of package bench and the Node
// harness of bench/node side by side, prints one table (metric, Go median,
// Node median, ratio) and writes the medians as JSON (schema in
// bench/README.md). `make bench-compare` runs it from the repository root.
//
// The two sides are interleaved to cancel machine drift: every round runs
// every metric once on each side, one process per measurement, and the side
// that goes first alternates from one measurement to the next. Each sample is
// the mean of one timed batch (go test's b.N, or the harness's own batch);
// the table shows the median of the rounds.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed11a79d2d/codemode/bench"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	goTool, node, nodePkg, harness, out, engine, tags string
	rounds                                            int
	benchtime, nodeWarmup                             time.Duration
	metrics                                           []bench.Metric
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var only string
	fs.StringVar(&c.goTool, "go", "go", "the go command")
	fs.StringVar(&c.node, "node", "node", "the node command")
	fs.StringVar(&c.nodePkg, "node-pkg", ".cache/bench-node", "where make bench-node installed quickjs-wasi")
	fs.StringVar(&c.harness, "harness", "bench/node/harness.mjs", "the Node harness")
	fs.StringVar(&c.out, "out", "bench/results/latest.json", "the JSON file to write (empty: none)")
	fs.StringVar(&c.engine, "engine", "quickjswasi-wazero", "the Go sub-benchmark (engine) to compare")
	fs.StringVar(&c.tags, "tags", "", "build tags for the Go benchmarks (wasmtime, for -engine quickjswasi-wasmtime)")
	fs.IntVar(&c.rounds, "rounds", 5, "interleaved rounds")
	fs.DurationVar(&c.benchtime, "benchtime", 300*time.Millisecond, "time per measurement, each side")
	fs.DurationVar(&c.nodeWarmup, "node-warmup", time.Second, "Node warm-up per measurement, so V8's optimizing tier has compiled the module")
	fs.StringVar(&only, "metrics", "", "comma-separated metrics (default: all)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	c.metrics = bench.Metrics
	if only != "" {
		c.metrics = nil
		for _, name := range strings.Split(only, ",") {
			m, ok := bench.Lookup(name)
			if !ok {
				fmt.Fprintf(stderr, "compare: unknown metric %q\n", name)
				return 2
			}
			c.metrics = append(c.metrics, m)
		}
	}
	if err := compare(ctx, c, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	return 0
}

// sample is one measurement of one side.
type sample struct {
	ns    float64
	bytes float64 // 0: none
}

// series collects the rounds of one metric.
type series struct {
	goRuns, nodeRuns   []float64
	goBytes, nodeBytes []float64
}

func compare(ctx context.Context, c config, stdout, stderr io.Writer) error {
	needNode := slices.ContainsFunc(c.metrics, func(m bench.Metric) bool { return m.Node })
	if needNode {
		if _, err := os.Stat(filepath.Join(c.nodePkg, "node_modules", "quickjs-wasi", "package.json")); err != nil {
			return fmt.Errorf("quickjs-wasi is not installed in %s: run make bench-node", c.nodePkg)
		}
	}
	tmp, err := os.MkdirTemp("", "bench-compare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	testBin := filepath.Join(tmp, "bench.test")
	build := exec.CommandContext(ctx, c.goTool, "test", "-c", "-tags", c.tags, "-o", testBin, "./bench")
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build the Go benchmarks: %w", err)
	}

	loadBefore := loadavg()
	started := time.Now()
	data := map[string]*series{}
	for r := range c.rounds {
		for i, m := range c.metrics {
			s := data[m.Name]
			if s == nil {
				s = &series{}
				data[m.Name] = s
			}
			sides := []string{"go", "node"}
			if !m.Node {
				sides = sides[:1]
			} else if (r+i)%2 == 1 {
				sides = []string{"node", "go"}
			}
			for _, side := range sides {
				var smp sample
				var err error
				if side == "go" {
					smp, err = runGo(ctx, c, testBin, m)
				} else {
					smp, err = runNode(ctx, c, m)
				}
				if err != nil {
					return fmt.Errorf("%s on %s: %w", m.Name, side, err)
				}
				if side == "go" {
					s.goRuns = append(s.goRuns, smp.ns)
					if smp.bytes > 0 {
						s.goBytes = append(s.goBytes, smp.bytes)
					}
				} else {
					s.nodeRuns = append(s.nodeRuns, smp.ns)
					if smp.bytes > 0 {
						s.nodeBytes = append(s.nodeBytes, smp.bytes)
					}
				}
				fmt.Fprintf(stderr, "round %d/%d %-16s %-4s %s\n", r+1, c.rounds, m.Name, side, duration(smp.ns, ""))
			}
		}
	}
	results := summarize(c.metrics, data)
	fmt.Fprintf(stdout, "Go %s (%s) vs Node %s quickjs-wasi wrapper; %d interleaved rounds, %s per measurement (Node after %s of warm-up), %s in all; load average %s before, %s after\n\n",
		c.engine, goVersion(ctx, c.goTool), nodeVersion(ctx, c.node), c.rounds, c.benchtime, c.nodeWarmup, time.Since(started).Round(time.Second), loadBefore, loadavg())
	writeTable(stdout, c.metrics, results)
	if c.out == "" {
		return nil
	}
	j, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(c.out, append(j, '\n'), 0o644)
}

// runGo runs one metric's Go benchmark in the prebuilt test binary.
func runGo(ctx context.Context, c config, testBin string, m bench.Metric) (sample, error) {
	pattern := "^" + m.Bench + "$"
	if m.PerEngine {
		pattern += "/^" + c.engine + "$"
	}
	cmd := exec.CommandContext(ctx, testBin, "-test.run", "^$", "-test.bench", pattern,
		"-test.benchtime", c.benchtime.String(), "-test.count", "1")
	cmd.Dir = "bench"
	out, err := cmd.CombinedOutput()
	if err != nil {
		return sample{}, fmt.Errorf("%w\n%s", err, out)
	}
	name := m.Bench
	if m.PerEngine {
		name += "/" + c.engine
	}
	return parseGo(out, name, m)
}

// parseGo reads the line of benchmark name from go test output: the metric's
// Unit as nanoseconds and its BytesUnit, if any.
func parseGo(out []byte, name string, m bench.Metric) (sample, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !matchesBench(f[0], name) {
			continue
		}
		var s sample
		found := false
		for k := 2; k+1 < len(f); k += 2 {
			v, err := strconv.ParseFloat(f[k], 64)
			if err != nil {
				continue
			}
			switch f[k+1] {
			case m.Unit:
				s.ns, found = v, true
			case m.BytesUnit:
				s.bytes = v
			}
		}
		if !found {
			return sample{}, fmt.Errorf("no %s in %q", m.Unit, sc.Text())
		}
		return s, nil
	}
	return sample{}, fmt.Errorf("no result for %s in:\n%s", name, out)
}

// matchesBench reports whether field is name with go test's -GOMAXPROCS
// suffix (or without one when GOMAXPROCS is 1).
func matchesBench(field, name string) bool {
	rest, ok := strings.CutPrefix(field, name)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	_, err := strconv.Atoi(strings.TrimPrefix(rest, "-"))
	return strings.HasPrefix(rest, "-") && err == nil
}

// runNode runs one metric in the Node harness.
func runNode(ctx context.Context, c config, m bench.Metric) (sample, error) {
	ms := strconv.FormatInt(c.benchtime.Milliseconds(), 10)
	warm := strconv.FormatInt(c.nodeWarmup.Milliseconds(), 10)
	cmd := exec.CommandContext(ctx, c.node, c.harness, "--pkg", c.nodePkg, "--metrics", m.Name, "--time", ms, "--warmup", warm)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return sample{}, fmt.Errorf("%w\n%s%s", err, out, stderr.Bytes())
	}
	return parseNode(out, m.Name)
}

// nodeLine is one line of the harness's output.
type nodeLine struct {
	Metric string  `json:"metric"`
	NS     float64 `json:"ns"`
	Bytes  float64 `json:"bytes"`
}

func parseNode(out []byte, metric string) (sample, error) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		var l nodeLine
		if json.Unmarshal(line, &l) == nil && l.Metric == metric {
			if l.NS <= 0 {
				return sample{}, fmt.Errorf("bad time in %s", line)
			}
			return sample{ns: l.NS, bytes: l.Bytes}, nil
		}
	}
	return sample{}, fmt.Errorf("no result for %s in:\n%s", metric, out)
}

// Result is one metric of bench/results/latest.json. Times are medians in
// nanoseconds per operation; Ratio is NodeNS/GoNS (above 1: Go is faster);
// BytesRatio is NodeBytes/GoBytes. Fields a side lacks are omitted.
type Result struct {
	GoNS       float64   `json:"go_ns,omitempty"`
	NodeNS     float64   `json:"node_ns,omitempty"`
	Ratio      float64   `json:"ratio,omitempty"`
	GoBytes    float64   `json:"go_bytes,omitempty"`
	NodeBytes  float64   `json:"node_bytes,omitempty"`
	BytesRatio float64   `json:"bytes_ratio,omitempty"`
	GoRuns     []float64 `json:"go_runs,omitempty"`
	NodeRuns   []float64 `json:"node_runs,omitempty"`
}

func summarize(metrics []bench.Metric, data map[string]*series) map[string]Result {
	out := map[string]Result{}
	for _, m := range metrics {
		s := data[m.Name]
		if s == nil {
			continue
		}
		r := Result{GoNS: median(s.goRuns), NodeNS: median(s.nodeRuns), GoBytes: median(s.goBytes), NodeBytes: median(s.nodeBytes),
			GoRuns: round(s.goRuns), NodeRuns: round(s.nodeRuns)}
		r.Ratio = ratio(r.NodeNS, r.GoNS)
		r.BytesRatio = ratio(r.NodeBytes, r.GoBytes)
		r.GoNS, r.NodeNS = round1(r.GoNS), round1(r.NodeNS)
		out[m.Name] = r
	}
	return out
}

func ratio(a, b float64) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return math.Round(a/b*1000) / 1000
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func round(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = round1(v)
	}
	return out
}

// median of vs; zero for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(vs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// writeTable prints the comparison as a Markdown table.
func writeTable(w io.Writer, metrics []bench.Metric, results map[string]Result) {
	fmt.Fprintln(w, "| metric | Go median | Node median | ratio (Node/Go) | target | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	row := func(name, goV, nodeV string, ratio, target float64) {
		t, met, r := "–", "–", "–"
		if ratio > 0 {
			r = fmt.Sprintf("%.2f×", ratio)
		}
		if target > 0 {
			t = fmt.Sprintf("≥ %g×", target)
			met = "no"
			if ratio >= target {
				met = "yes"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", name, goV, nodeV, r, t, met)
	}
	for _, m := range metrics {
		r, ok := results[m.Name]
		if !ok {
			continue
		}
		unit := ""
		if m.Unit != "ns/op" {
			unit = "/" + strings.TrimPrefix(m.Unit, "ns/")
		}
		timeTarget := m.MinRatio
		if m.ByBytes {
			timeTarget = 0
		}
		row(m.Name, duration(r.GoNS, unit), duration(r.NodeNS, unit), r.Ratio, timeTarget)
		if r.GoBytes > 0 || r.NodeBytes > 0 {
			bytesTarget := 0.0
			if m.ByBytes {
				bytesTarget = m.MinRatio
			}
			row(m.Name+" (size)", size(r.GoBytes), size(r.NodeBytes), r.BytesRatio, bytesTarget)
		}
	}
}

// duration formats nanoseconds with three significant digits and a unit
// suffix such as "/call"; "–" for none.
func duration(ns float64, per string) string {
	switch {
	case ns <= 0:
		return "–"
	case ns < 1e3:
		return fmt.Sprintf("%.3g ns%s", ns, per)
	case ns < 1e6:
		return fmt.Sprintf("%.3g µs%s", ns/1e3, per)
	case ns < 1e9:
		return fmt.Sprintf("%.3g ms%s", ns/1e6, per)
	}
	return fmt.Sprintf("%.3g s%s", ns/1e9, per)
}

func size(b float64) string {
	if b <= 0 {
		return "–"
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " B"
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func goVersion(ctx context.Context, goTool string) string {
	out, err := exec.CommandContext(ctx, goTool, "env", "GOVERSION").Output()
	if err != nil {
		return "go"
	}
	return strings.TrimSpace(string(out))
}

func nodeVersion(ctx context.Context, node string) string {
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return "node"
	}
	return strings.TrimSpace(string(out))
}
