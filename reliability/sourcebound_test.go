package reliability

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
)

// shapeConfig is the setting of the source-shape tests: a 3 s deadline and
// a small guest heap, since what is under test is the parse, not a guest's
// own memory (and the demo plugin: code mode needs a tool).
const shapeConfig = `{
  tools: { codeMode: { enabled: true, timeoutMs: 3000, memoryLimitBytes: 16777216 } },
  plugins: { demo: true },
}`

// shapeGrowthKiB is how much the shapes may add to the host process's peak
// resident set over its warmed-up baseline, and the most a parser process
// may hold (its own bound, RLIMIT_DATA, is lower).
const shapeGrowthKiB = 256 << 10

// shapeVerdict says what is wrong with a shape's result, or "": any
// completed result, or a failure with a message and a code that is the
// cell's own (not the host giving up).
func shapeVerdict(r host.Result) string {
	if r.Status == host.StatusCompleted ||
		r.Status == host.StatusFailed && r.Error != "" && r.Code != "" && r.Code != abi.CodeRuntimeUnavailable && r.Code != abi.CodeAborted {
		return ""
	}
	return "no clear result: " + describe(r)
}

// TestSourceShapesServe sends every source shape, two at a time, to one
// session of a real `codemode serve --http` process while a second session
// sends one-line JavaScript and TypeScript cells back to back. Each shape gets a clear result, every probe answers, the
// process's peak RSS grows at most shapeGrowthKiB over its warmed-up
// baseline, and no parser process it starts is seen above that either.
// How long each shape took past its deadline and the worst probe are
// logged, not asserted.
func TestSourceShapesServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := startServe(t, shapeConfig)
	pid := srv.cmd.Process.Pid
	ctx := context.Background()
	attacker, prober := dialSession(t, srv.url), dialSession(t, srv.url)
	// Warm: the engine, and a parser process (TypeScript needs one).
	for _, lang := range []string{"javascript", "typescript"} {
		r, _, err := callResult(ctx, attacker, "exec", map[string]any{"code": "const x = 1; return x", "language": lang})
		if err != nil || string(r.Value) != "1" {
			t.Fatalf("warm-up (%s): %v %s", lang, err, describe(r))
		}
	}
	base := peakKiB(pid)
	children := watchChildren(pid)

	stop := make(chan struct{})
	probe := make(chan probeRun, 1)
	// The probes alternate JavaScript and TypeScript: the second needs a
	// parser while the attacker's shapes keep their share of them busy.
	go func() {
		n := 0
		probe <- probeUntil(ctx, stop, func(ctx context.Context) (host.Result, error) {
			n++
			cell := map[string]any{"code": "const x = 1; return x"}
			if n%2 == 0 {
				cell = map[string]any{"code": "const x: number = 1; return x", "language": "typescript"}
			}
			r, _, err := callResult(ctx, prober, "exec", cell)
			return r, err
		})
	}()
	// Two shapes at a time, from the one session.
	shapes := sourceShapes()
	report := make([]string, len(shapes))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, s := range shapes {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			t0 := time.Now()
			// A liveness bound, not a speed assertion.
			sctx, cancel := context.WithTimeout(ctx, time.Minute)
			r, _, err := callResult(sctx, attacker, "exec", map[string]any{"code": s.src, "language": s.lang})
			cancel()
			if err != nil {
				t.Errorf("%s: %v\n%s", s.name, err, srv.log)
				return
			}
			if v := shapeVerdict(r); v != "" {
				t.Errorf("%s: %s", s.name, v)
			}
			report[i] = s.name + ": " + outcome(r) + " in " + time.Since(t0).Round(10*time.Millisecond).String()
		})
	}
	wg.Wait()
	close(stop)
	p := <-probe
	childPeak := children.end()
	if p.err != "" {
		t.Fatal(p.err)
	}
	peak := peakKiB(pid)
	t.Logf("%d shapes; host peak RSS %d MiB (warmed up %d MiB); largest parser seen %d MiB; %d probes, worst %v\n%s",
		len(shapes), peak>>10, base>>10, childPeak>>10, p.n, p.worst.Round(time.Millisecond), strings.Join(report, "\n"))
	if peak > base+shapeGrowthKiB {
		t.Errorf("host peak RSS %d MiB, over the warmed-up %d MiB by more than %d MiB", peak>>10, base>>10, shapeGrowthKiB>>10)
	}
	if childPeak > shapeGrowthKiB {
		t.Errorf("a parser process reached %d MiB", childPeak>>10)
	}
}

// TestSourceShapesExec runs every source shape as `codemode exec FILE`:
// each gets a clear result on stdout, and the process's peak RSS, with the
// parser processes it waited for, stays within shapeGrowthKiB of what
// `codemode exec` takes for a one-line TypeScript cell.
func TestSourceShapesExec(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	config := filepath.Join(dir, "codemode.json5")
	if err := os.WriteFile(config, []byte(shapeConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	warm := filepath.Join(dir, "warm.ts")
	os.WriteFile(warm, []byte("const x: number = 1; return x"), 0o644)
	r, base := execFile(t, bin, config, warm)
	if string(r.Value) != "1" {
		t.Fatalf("baseline: %s", describe(r))
	}
	shapes := sourceShapes()
	lines := make([]string, len(shapes))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, s := range shapes {
		file := filepath.Join(dir, "shape"+strconv.Itoa(i)+map[string]string{"typescript": ".ts", "javascript": ".js"}[s.lang])
		if err := os.WriteFile(file, []byte(s.src), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			t0 := time.Now()
			r, peak := execFile(t, bin, config, file)
			if v := shapeVerdict(r); v != "" {
				t.Errorf("%s: %s", s.name, v)
			}
			if peak > base+shapeGrowthKiB {
				t.Errorf("%s: peak RSS %d MiB, over the baseline %d MiB by more than %d MiB", s.name, peak>>10, base>>10, shapeGrowthKiB>>10)
			}
			lines[i] = s.name + ": " + outcome(r) + ", peak " + strconv.Itoa(peak>>10) + " MiB in " + time.Since(t0).Round(10*time.Millisecond).String()
		})
	}
	wg.Wait()
	t.Logf("baseline peak %d MiB\n%s", base>>10, strings.Join(lines, "\n"))
}

// TestSourceParseStopsOnSIGTERM sends SIGTERM to `codemode exec` while its
// parser process works on a shape that takes tens of seconds (under a 60 s
// deadline): the command exits, and its parser process ends with it.
func TestSourceParseStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	config := filepath.Join(dir, "codemode.json5")
	os.WriteFile(config, []byte(strings.Replace(shapeConfig, "3000", "60000", 1)), 0o644)
	var slow sourceShape
	for _, s := range sourceShapes() {
		if s.name == "duplicate let" {
			slow = s
		}
	}
	file := filepath.Join(dir, "slow.ts")
	os.WriteFile(file, []byte(slow.src), 0o644)
	cmd := exec.Command(bin, "exec", "--config", config, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	var parser int
	for parser == 0 {
		select {
		case <-exited:
			t.Fatalf("codemode exec ended before its parser started: %s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if kids := childPIDs(cmd.Process.Pid); len(kids) > 0 {
			parser = kids[0]
		}
	}
	time.Sleep(200 * time.Millisecond) // into the parse
	t0 := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(30 * time.Second): // liveness, not speed
		t.Fatalf("codemode exec still runs 30 s after SIGTERM")
	}
	took := time.Since(t0)
	// The parser is gone (or a zombie no one reaps): it does no work.
	for i := 0; ; i++ {
		state := procState(parser)
		if state == "" || state == "Z" {
			break
		}
		if i == 500 {
			t.Fatalf("parser %d still in state %s 10 s after codemode exec exited", parser, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("codemode exec exited %v after SIGTERM (exit %v); its parser %d ended", took.Round(time.Millisecond), cmd.ProcessState, parser)
}

// execFile runs `bin exec --config config file` and returns the last result
// it printed and its peak RSS in KiB (with the children it waited for).
func execFile(t *testing.T, bin, config, file string) (host.Result, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // liveness
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "exec", "--config", config, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	var r host.Result
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Errorf("%s printed no result (%v): %q\n%s", filepath.Base(file), cmd.ProcessState, out, stderr.String())
	}
	peak := 0
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = int(ru.Maxrss)
	}
	return r, peak
}

// outcome is a result in a few words for the logs.
func outcome(r host.Result) string {
	if r.Status == host.StatusFailed {
		s := string(r.Code)
		if r.Reason != "" {
			s += "/" + string(r.Reason)
		}
		e := []rune(r.Error)
		return s + " (" + string(e[:min(len(e), 60)]) + ")"
	}
	return string(r.Status)
}

// probeRun is what a probe session saw.
type probeRun struct {
	n     int
	worst time.Duration
	err   string
}

// probeUntil sends one probe after another until stop is closed; each must
// answer 1 within a liveness bound of a minute.
func probeUntil(ctx context.Context, stop <-chan struct{}, send func(context.Context) (host.Result, error)) probeRun {
	var p probeRun
	for {
		select {
		case <-stop:
			return p
		default:
		}
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		t0 := time.Now()
		r, err := send(pctx)
		d := time.Since(t0)
		cancel()
		if err != nil || string(r.Value) != "1" {
			p.err = "probe: " + describe(r)
			if err != nil {
				p.err = "probe: " + err.Error()
			}
			return p
		}
		p.n++
		p.worst = max(p.worst, d)
	}
}

// peakKiB is the peak resident set (VmHWM) of process pid, 0 if unknown.
func peakKiB(pid int) int {
	return statusKiB(pid, "VmHWM:")
}

func statusKiB(pid int, field string) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == field {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// procState is the state letter of process pid, "" if it is gone.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// pid (comm) S ...: comm may hold spaces, so read after the last ')'.
	if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
		return string(b[i+2])
	}
	return ""
}

// childPIDs are the live children of process pid (every thread's).
func childPIDs(pid int) []int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(s); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// childWatch samples the peak RSS of pid's children every 20 ms (a child
// killed between two samples takes its last peak with it: the parser's
// rlimit is the hard bound, this is the evidence).
type childWatch struct {
	stop chan struct{}
	peak chan int
}

func watchChildren(pid int) *childWatch {
	w := &childWatch{stop: make(chan struct{}), peak: make(chan int, 1)}
	go func() {
		peak := 0
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			for _, c := range childPIDs(pid) {
				peak = max(peak, peakKiB(c))
			}
			select {
			case <-w.stop:
				w.peak <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *childWatch) end() int { close(w.stop); return <-w.peak }
