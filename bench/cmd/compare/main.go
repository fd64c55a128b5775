// Command compare runs the Go benchmarks of package bench and the peers of
// the Node harness (bench/node) side by side, prints every ratio of
// bench.Comparisons against its target, and writes the medians as JSON
// (schema in bench/README.md). With -baseline it also compares the ratios
// with an earlier run and fails on one more than -tolerance below it.
// `make bench-compare` and `make bench-check` run it from the repository
// root.
//
// The sides are interleaved to cancel machine drift: every round runs every
// measurement once, one process per measurement, grouped by Go metric (the
// Go benchmark and the peer measurements it is compared with), and the
// order within a group reverses from one group to the next. Each sample is
// the mean of one timed batch (go test's b.N, or the harness's own batch);
// the table shows the median of the rounds for each side, and as the ratio
// the median of the rounds' ratios.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	goTool, node, nodePkg, harness, out, baseline, engine, tags string
	rounds                                                      int
	tolerance                                                   float64
	benchtime, nodeWarmup                                       time.Duration
	metrics                                                     []bench.Metric
	comparisons                                                 []bench.Comparison
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var only, peers string
	fs.StringVar(&c.goTool, "go", "go", "the go command")
	fs.StringVar(&c.node, "node", "node", "the node command")
	fs.StringVar(&c.nodePkg, "node-pkg", ".cache/bench-node", "where make bench-node installed the peers")
	fs.StringVar(&c.harness, "harness", "bench/node/harness.mjs", "the Node harness")
	fs.StringVar(&c.out, "out", "bench/results/latest.json", "the JSON file to write (empty: none)")
	fs.StringVar(&c.baseline, "baseline", "", "a JSON file of an earlier run: fail on a ratio more than -tolerance below its")
	fs.Float64Var(&c.tolerance, "tolerance", 0.15, "how far below the baseline a ratio may fall, as a fraction of it")
	fs.StringVar(&c.engine, "engine", "quickjswasi-wazero", "the Go sub-benchmark (engine) to compare")
	fs.StringVar(&c.tags, "tags", "", "build tags for the Go benchmarks (wasmtime, for -engine quickjswasi-wasmtime)")
	fs.IntVar(&c.rounds, "rounds", 5, "interleaved rounds")
	fs.DurationVar(&c.benchtime, "benchtime", 300*time.Millisecond, "time per measurement, each side")
	fs.DurationVar(&c.nodeWarmup, "node-warmup", time.Second, "Node warm-up per measurement, so V8's optimizing tier has compiled the module")
	fs.StringVar(&only, "metrics", "", "comma-separated Go metrics (default: all)")
	fs.StringVar(&peers, "peers", "", "comma-separated peers (default: all; \"none\" for the Go side only)")
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
	chosen := map[string]bool{}
	for _, p := range bench.Peers {
		chosen[p.Name] = peers == ""
	}
	if peers != "" && peers != "none" {
		for _, name := range strings.Split(peers, ",") {
			if _, ok := chosen[name]; !ok {
				fmt.Fprintf(stderr, "compare: unknown peer %q\n", name)
				return 2
			}
			chosen[name] = true
		}
	}
	for _, cmp := range bench.Comparisons {
		if chosen[cmp.Peer] && slices.ContainsFunc(c.metrics, func(m bench.Metric) bool { return m.Name == cmp.Metric }) {
			c.comparisons = append(c.comparisons, cmp)
		}
	}
	if err := compare(ctx, c, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	return 0
}

// errRegressed is compare's error when a ratio fell below the baseline.
var errRegressed = errors.New("a ratio fell below the baseline")

// sample is one measurement of one side.
type sample struct {
	ns      float64
	bytes   float64 // 0: none
	version string  // the peer's package version
}

// series collects the rounds of one measurement.
type series struct {
	runs, bytes []float64
	version     string
}

// job is one measurement: a Go metric, or a peer's metric.
type job struct {
	metric           bench.Metric // the Go metric (of the group, for a peer)
	peer, peerMetric string       // empty for the Go side
}

func (j job) key() string {
	if j.peer == "" {
		return j.metric.Name
	}
	return j.peer + "/" + j.peerMetric
}

// groups returns the jobs of every round: per Go metric, its benchmark and
// then each peer measurement it is compared with (a peer measurement once
// only, in the group of its first comparison).
func groups(metrics []bench.Metric, comparisons []bench.Comparison) [][]job {
	var out [][]job
	seen := map[string]bool{}
	for _, m := range metrics {
		g := []job{{metric: m}}
		for _, cmp := range comparisons {
			j := job{metric: m, peer: cmp.Peer, peerMetric: cmp.PeerMetric}
			if cmp.Metric == m.Name && !seen[j.key()] {
				seen[j.key()] = true
				g = append(g, j)
			}
		}
		out = append(out, g)
	}
	return out
}

func compare(ctx context.Context, c config, stdout, stderr io.Writer) error {
	for _, p := range bench.Peers {
		if !slices.ContainsFunc(c.comparisons, func(cmp bench.Comparison) bool { return cmp.Peer == p.Name }) {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.nodePkg, "node_modules", p.Package, "package.json")); err != nil {
			return fmt.Errorf("%s is not installed in %s: run make bench-node", p.Package, c.nodePkg)
		}
	}
	var base *Output
	if c.baseline != "" {
		b, err := readOutput(c.baseline)
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		base = b
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
	gs := groups(c.metrics, c.comparisons)
	for r := range c.rounds {
		for i, g := range gs {
			order := slices.Clone(g)
			if (r+i)%2 == 1 {
				slices.Reverse(order)
			}
			for _, j := range order {
				var smp sample
				var err error
				if j.peer == "" {
					smp, err = runGo(ctx, c, testBin, j.metric)
				} else {
					smp, err = runNode(ctx, c, j.peer, j.peerMetric)
				}
				if err != nil {
					return fmt.Errorf("%s: %w", j.key(), err)
				}
				s := data[j.key()]
				if s == nil {
					s = &series{}
					data[j.key()] = s
				}
				s.runs = append(s.runs, smp.ns)
				if smp.bytes > 0 {
					s.bytes = append(s.bytes, smp.bytes)
				}
				s.version = smp.version
				fmt.Fprintf(stderr, "round %d/%d %-32s %s\n", r+1, c.rounds, j.key(), duration(smp.ns, ""))
			}
		}
	}
	out := summarize(c.metrics, c.comparisons, data)
	out.Conditions = Conditions{
		Date: started.UTC().Format(time.RFC3339), Engine: c.engine, Go: goVersion(ctx, c.goTool), Node: nodeVersion(ctx, c.node),
		Rounds: c.rounds, Benchtime: c.benchtime.String(), NodeWarmup: c.nodeWarmup.String(),
		LoadBefore: loadBefore, LoadAfter: loadavg(), Took: time.Since(started).Round(time.Second).String(),
	}
	cd := out.Conditions
	fmt.Fprintf(stdout, "codemode %s (%s) vs Node %s peers; %d interleaved rounds, %s per measurement (Node after %s of warm-up), %s in all; load average %s before, %s after\n\n",
		cd.Engine, cd.Go, cd.Node, cd.Rounds, cd.Benchtime, cd.NodeWarmup, cd.Took, cd.LoadBefore, cd.LoadAfter)
	writeTable(stdout, c.comparisons, out)
	writeGoOnly(stdout, c.metrics, c.comparisons, out)
	if c.out != "" {
		j, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(c.out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(c.out, append(j, '\n'), 0o644); err != nil {
			return err
		}
	}
	if base != nil {
		fmt.Fprintln(stdout)
		if !check(stdout, base, out, c.tolerance) {
			return errRegressed
		}
	}
	return nil
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

// runNode runs one metric of a peer in the Node harness.
func runNode(ctx context.Context, c config, peer, metric string) (sample, error) {
	ms := strconv.FormatInt(c.benchtime.Milliseconds(), 10)
	warm := strconv.FormatInt(c.nodeWarmup.Milliseconds(), 10)
	cmd := exec.CommandContext(ctx, c.node, c.harness, "--pkg", c.nodePkg, "--peer", peer, "--metrics", metric, "--time", ms, "--warmup", warm)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return sample{}, fmt.Errorf("%w\n%s%s", err, out, stderr.Bytes())
	}
	return parseNode(out, peer, metric)
}

// nodeLine is one line of the harness's output.
type nodeLine struct {
	Peer    string  `json:"peer"`
	Version string  `json:"version"`
	Metric  string  `json:"metric"`
	NS      float64 `json:"ns"`
	Bytes   float64 `json:"bytes"`
}

func parseNode(out []byte, peer, metric string) (sample, error) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		var l nodeLine
		if json.Unmarshal(line, &l) == nil && l.Peer == peer && l.Metric == metric {
			if l.NS <= 0 {
				return sample{}, fmt.Errorf("bad time in %s", line)
			}
			return sample{ns: l.NS, bytes: l.Bytes, version: l.Version}, nil
		}
	}
	return sample{}, fmt.Errorf("no result for %s %s in:\n%s", peer, metric, out)
}

// Output is bench/results/latest.json (and baseline.json). Times are
// medians in nanoseconds per operation, sizes medians in bytes.
type Output struct {
	Conditions Conditions `json:"conditions"`
	// Go is keyed by metric name.
	Go map[string]Side `json:"go"`
	// Peers is keyed by peer and then by the peer's metric name.
	Peers map[string]map[string]Side `json:"peers,omitempty"`
	// Ratios is keyed by bench.Comparison.Key.
	Ratios map[string]Ratio `json:"ratios,omitempty"`
}

// Conditions says how and when the run was taken.
type Conditions struct {
	Date       string `json:"date"`
	Engine     string `json:"engine"`
	Go         string `json:"go"`
	Node       string `json:"node"`
	Rounds     int    `json:"rounds"`
	Benchtime  string `json:"benchtime"`
	NodeWarmup string `json:"node_warmup"`
	LoadBefore string `json:"load_before"`
	LoadAfter  string `json:"load_after"`
	Took       string `json:"took"`
}

// Side is one measurement's medians and the samples behind them.
type Side struct {
	NS      float64   `json:"ns"`
	Bytes   float64   `json:"bytes,omitempty"`
	Runs    []float64 `json:"runs"`
	Version string    `json:"version,omitempty"`
}

// Ratio is one comparison: peer/codemode, of time or of bytes (above 1,
// codemode is faster or smaller), the median of the rounds' ratios (see
// pairedRatio), with its target if it has one.
type Ratio struct {
	Metric     string  `json:"metric"`
	Peer       string  `json:"peer"`
	PeerMetric string  `json:"peer_metric"`
	Bytes      bool    `json:"bytes,omitempty"`
	Ratio      float64 `json:"ratio"`
	Target     float64 `json:"target,omitempty"`
	Met        *bool   `json:"met,omitempty"`
}

func summarize(metrics []bench.Metric, comparisons []bench.Comparison, data map[string]*series) *Output {
	side := func(s *series) Side {
		return Side{NS: round1(median(s.runs)), Bytes: median(s.bytes), Runs: round(s.runs), Version: s.version}
	}
	out := &Output{Go: map[string]Side{}, Peers: map[string]map[string]Side{}, Ratios: map[string]Ratio{}}
	for _, m := range metrics {
		if s := data[m.Name]; s != nil {
			out.Go[m.Name] = side(s)
		}
	}
	for _, cmp := range comparisons {
		g, p := data[cmp.Metric], data[cmp.Peer+"/"+cmp.PeerMetric]
		if g == nil || p == nil {
			continue
		}
		if out.Peers[cmp.Peer] == nil {
			out.Peers[cmp.Peer] = map[string]Side{}
		}
		out.Peers[cmp.Peer][cmp.PeerMetric] = side(p)
		num, den := p.runs, g.runs
		if cmp.Bytes {
			num, den = p.bytes, g.bytes
		}
		r := Ratio{Metric: cmp.Metric, Peer: cmp.Peer, PeerMetric: cmp.PeerMetric, Bytes: cmp.Bytes, Target: cmp.MinRatio}
		if r.Ratio = pairedRatio(num, den); r.Ratio > 0 {
			if cmp.MinRatio > 0 {
				met := r.Ratio >= cmp.MinRatio
				r.Met = &met
			}
			r.Ratio = math.Round(r.Ratio*1000) / 1000
		}
		r.Target = math.Round(r.Target*1000) / 1000
		out.Ratios[cmp.Key()] = r
	}
	return out
}

// pairedRatio is the median over the rounds of num[i]/den[i]: the two
// samples of a round are taken one after the other, so a burst of load on
// the machine falls on both and cancels in their ratio, where it would move
// one side's median alone. Series of different lengths (none here but in
// tests) fall back to the ratio of the medians; zero if a side is missing.
func pairedRatio(num, den []float64) float64 {
	if len(num) == 0 || len(den) == 0 {
		return 0
	}
	if len(num) != len(den) {
		n, d := median(num), median(den)
		if n <= 0 || d <= 0 {
			return 0
		}
		return n / d
	}
	rs := make([]float64, 0, len(num))
	for i := range num {
		if num[i] <= 0 || den[i] <= 0 {
			return 0
		}
		rs = append(rs, num[i]/den[i])
	}
	return median(rs)
}

func readOutput(path string) (*Output, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var o Output
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(o.Ratios) == 0 {
		return nil, fmt.Errorf("%s has no ratios", path)
	}
	return &o, nil
}

// check prints every ratio of base beside now's and reports whether none
// fell more than tolerance (a fraction) below its baseline. A comparison the
// run did not make is shown and not held against it.
func check(w io.Writer, base, now *Output, tolerance float64) bool {
	fmt.Fprintf(w, "Against the baseline of %s (load average %s): a ratio may fall at most %.0f%% below it\n\n",
		base.Conditions.Date, base.Conditions.LoadBefore, tolerance*100)
	if b, n := load1(base.Conditions.LoadBefore), load1(now.Conditions.LoadBefore); b >= 0 && n > max(2, 2*b) {
		fmt.Fprintf(w, "Note: the machine is busier than at the baseline (load %.1f against %.1f); ratios move with load, so a miss may be the load's.\n\n", n, b)
	}
	fmt.Fprintln(w, "| comparison | baseline | now | change | ok |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range base.Ratios {
			if !yield(k) {
				return
			}
		}
	})
	ok := true
	for _, k := range keys {
		b := base.Ratios[k]
		n, measured := now.Ratios[k]
		switch {
		case b.Ratio <= 0:
			continue
		case !measured || n.Ratio <= 0:
			fmt.Fprintf(w, "| %s | %.3g× | – | – | not measured |\n", k, b.Ratio)
			continue
		}
		verdict := "yes"
		if n.Ratio < b.Ratio*(1-tolerance) {
			verdict, ok = "**no**", false
		}
		fmt.Fprintf(w, "| %s | %.3g× | %.3g× | %+.0f%% | %s |\n", k, b.Ratio, n.Ratio, (n.Ratio/b.Ratio-1)*100, verdict)
	}
	return ok
}

// load1 is the one-minute figure of a load average line; -1 if unknown.
func load1(s string) float64 {
	f, err := strconv.ParseFloat(strings.Fields(s + " x")[0], 64)
	if err != nil {
		return -1
	}
	return f
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

// writeTable prints every comparison as a Markdown table.
func writeTable(w io.Writer, comparisons []bench.Comparison, out *Output) {
	fmt.Fprintln(w, "| codemode metric | codemode | peer: operation | peer | ratio (peer/codemode, per-round median) | target | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, cmp := range comparisons {
		r, ok := out.Ratios[cmp.Key()]
		if !ok {
			continue
		}
		g, p := out.Go[cmp.Metric], out.Peers[cmp.Peer][cmp.PeerMetric]
		m, _ := bench.Lookup(cmp.Metric)
		goV, peerV := duration(g.NS, per(m)), duration(p.NS, per(m))
		name := cmp.Metric
		if cmp.Bytes {
			goV, peerV, name = size(g.Bytes), size(p.Bytes), name+" (size)"
		}
		rs, target, met := "–", "–", "–"
		if r.Ratio > 0 {
			rs = fmt.Sprintf("%.3g×", r.Ratio)
		}
		if cmp.MinRatio > 0 {
			target = fmt.Sprintf("≥ %.3g×", cmp.MinRatio)
			if cmp.MinRatio < 1 {
				what := "time"
				if cmp.Bytes {
					what = "bytes"
				}
				target += fmt.Sprintf(" (≤ %.3g× its %s)", 1/cmp.MinRatio, what)
			}
		}
		if r.Met != nil {
			met = "**miss**"
			if *r.Met {
				met = "pass"
			}
		}
		peer := cmp.Peer + ": " + cmp.PeerMetric
		if v := p.Version; v != "" {
			peer = cmp.Peer + "@" + v + ": " + cmp.PeerMetric
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", name, goV, peer, peerV, rs, target, met)
	}
}

// writeGoOnly prints the Go metrics no comparison uses, with their rate.
func writeGoOnly(w io.Writer, metrics []bench.Metric, comparisons []bench.Comparison, out *Output) {
	header := false
	for _, m := range metrics {
		s, ok := out.Go[m.Name]
		if !ok || slices.ContainsFunc(comparisons, func(c bench.Comparison) bool { return c.Metric == m.Name }) {
			continue
		}
		if !header {
			fmt.Fprintln(w, "\n| codemode only | median | per second | one operation |")
			fmt.Fprintln(w, "|---|---|---|---|")
			header = true
		}
		rate := "–"
		if s.NS > 0 {
			rate = strconv.FormatFloat(math.Round(1e9/s.NS), 'f', 0, 64)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", m.Name, duration(s.NS, per(m)), rate, m.What)
	}
}

// per is the unit suffix of a metric's times: "/call" for ns/call.
func per(m bench.Metric) string {
	if m.Unit == "ns/op" {
		return ""
	}
	return "/" + strings.TrimPrefix(m.Unit, "ns/")
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
