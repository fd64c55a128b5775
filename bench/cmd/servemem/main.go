// Command servemem measures the resident memory of a `codemode serve`
// process under two loads (bench/RESULTS.md, "Memory"):
//
//	go build -o /tmp/codemode ./cmd/codemode
//	go run ./bench/cmd/servemem -bin /tmp/codemode -mode heavy     # 8 cells at their heap limit at once
//	go run ./bench/cmd/servemem -bin /tmp/codemode -mode sessions  # 200 sessions, one small exec each
//
// It starts `BIN serve --config FILE --http 127.0.0.1:0` (code mode on, the
// demo plugin, a 60 s timeout), connects MCP clients over streamable HTTP
// and reads VmRSS and VmHWM from /proc/PID/status (Linux only). Idle is the
// resident set after one small exec and a second's rest.
//
// heavy runs -cells cells of bench/heavy at once, one per session (cycling
// through the kinds unless -cell names one), then samples the resident set
// every second for -settle and says when it came back within 64 MiB of idle.
// sessions opens -sessions sessions, each runs `return 1` once, and reads
// the resident set with every session still open.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/bench/heavy"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const config = `{ tools: { codeMode: { enabled: true, timeoutMs: 60000 } }, plugins: { demo: true } }`

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servemem", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("bin", "", "the codemode binary (go build -o /tmp/codemode ./cmd/codemode)")
	mode := fs.String("mode", "heavy", "heavy or sessions")
	cells := fs.Int("cells", 8, "heavy: cells at once")
	cell := fs.String("cell", "", "heavy: one kind of bench/heavy ("+strings.Join(heavy.Names, ", ")+"; default: each in turn)")
	settle := fs.Duration("settle", time.Minute, "heavy: how long to watch the resident set after the cells")
	sessions := fs.Int("sessions", 200, "sessions: how many")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *bin == "" || (*mode != "heavy" && *mode != "sessions") {
		fmt.Fprintln(stderr, "usage: servemem -bin CODEMODE [-mode heavy|sessions] [flags]")
		return 2
	}
	if *cell != "" {
		if _, ok := heavy.Source(*cell); !ok {
			fmt.Fprintf(stderr, "servemem: no cell %q in bench/heavy\n", *cell)
			return 2
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s, err := start(ctx, *bin)
	if err != nil {
		fmt.Fprintln(stderr, "servemem:", err)
		return 1
	}
	defer s.stop()
	if *mode == "heavy" {
		err = heavyRun(ctx, s, stdout, *cells, *cell, *settle)
	} else {
		err = sessionsRun(ctx, s, stdout, *sessions)
	}
	if err != nil {
		fmt.Fprintln(stderr, "servemem:", err)
		return 1
	}
	return 0
}

// served is the serve child process.
type served struct {
	cmd  *exec.Cmd
	url  string
	dir  string
	done chan error
}

var servingURL = regexp.MustCompile(`msg="serving MCP over streamable HTTP" url=(\S+)`)

func start(ctx context.Context, bin string) (*served, error) {
	dir, err := os.MkdirTemp("", "servemem")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "codemode.json5")
	s := &served{dir: dir, done: make(chan error, 1)}
	s.cmd = exec.Command(bin, "serve", "--config", file, "--http", "127.0.0.1:0")
	logs, err := s.cmd.StderrPipe()
	if err == nil {
		err = os.WriteFile(file, []byte(config), 0o644)
	}
	if err == nil {
		err = s.cmd.Start()
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		found := false
		for sc.Scan() {
			if m := servingURL.FindStringSubmatch(sc.Text()); m != nil && !found {
				found = true
				url <- m[1]
			}
		}
		s.done <- s.cmd.Wait()
	}()
	select {
	case s.url = <-url:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("serve exited before serving: %v", err)
	case <-time.After(60 * time.Second):
		s.stop()
		return nil, errors.New("serve logged no URL in 60 s")
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
}

func (s *served) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
	}
	os.RemoveAll(s.dir)
}

// mem is the resident set and its peak, in bytes, from /proc/PID/status.
func (s *served) mem() (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			hwm = kb << 10
		}
	}
	if rss == 0 || hwm == 0 {
		return 0, 0, errors.New("no VmRSS or VmHWM in /proc (Linux only)")
	}
	return rss, hwm, nil
}

func (s *served) dial(ctx context.Context) (*sdk.ClientSession, error) {
	return sdk.NewClient(&sdk.Implementation{Name: "servemem", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: s.url, MaxRetries: 1}, nil)
}

// exec runs code in cs and returns the result's status and reason.
func exec1(ctx context.Context, cs *sdk.ClientSession, code string) (string, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": code}})
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r struct{ Status, Reason string }
	if err := json.Unmarshal(b, &r); err != nil {
		return "", err
	}
	if r.Reason != "" {
		return r.Status + " (" + r.Reason + ")", nil
	}
	return r.Status, nil
}

// idle runs one small exec, rests a second and returns the resident set.
func idle(ctx context.Context, s *served) (int64, error) {
	cs, err := s.dial(ctx)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	if st, err := exec1(ctx, cs, "return 1"); err != nil || st != "completed" {
		return 0, fmt.Errorf("return 1: %s %v", st, err)
	}
	time.Sleep(time.Second)
	rss, _, err := s.mem()
	return rss, err
}

func heavyRun(ctx context.Context, s *served, w io.Writer, n int, kind string, settle time.Duration) error {
	base, err := idle(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "idle: %s\n", mib(base))
	var wg sync.WaitGroup
	outcomes := make([]string, n)
	t0 := time.Now()
	for i := range n {
		k := kind
		if k == "" {
			k = heavy.Names[i%len(heavy.Names)]
		}
		src, _ := heavy.Source(k)
		wg.Go(func() {
			cs, err := s.dial(ctx)
			if err != nil {
				outcomes[i] = k + ": " + err.Error()
				return
			}
			defer cs.Close()
			st, err := exec1(ctx, cs, src)
			if err != nil {
				st = err.Error()
			}
			outcomes[i] = k + ": " + st
		})
	}
	wg.Wait()
	took := time.Since(t0)
	rss, hwm, err := s.mem()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d cells at once in %v: %s\n", n, took.Round(time.Millisecond), strings.Join(outcomes, "; "))
	fmt.Fprintf(w, "peak (VmHWM): %s; at the end of the cells: %s\n", mib(hwm), mib(rss))
	back := time.Duration(-1)
	var line []string
	for t := time.Second; t <= settle; t += time.Second {
		time.Sleep(time.Until(t0.Add(took + t)))
		rss, _, err := s.mem()
		if err != nil {
			return err
		}
		if back < 0 && rss <= base+64<<20 {
			back = t
		}
		if t%(10*time.Second) == 0 || t == settle {
			line = append(line, fmt.Sprintf("%v %s", t, mib(rss)))
		}
	}
	fmt.Fprintf(w, "after the cells: %s\n", strings.Join(line, ", "))
	if back >= 0 {
		fmt.Fprintf(w, "within 64 MiB of idle after %v\n", back)
	} else {
		fmt.Fprintf(w, "not within 64 MiB of idle (%s) after %v\n", mib(base+64<<20), settle)
	}
	return nil
}

func sessionsRun(ctx context.Context, s *served, w io.Writer, n int) error {
	base, err := idle(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "idle: %s\n", mib(base))
	open := make([]*sdk.ClientSession, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := range n {
		wg.Go(func() {
			cs, err := s.dial(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			open[i] = cs
			if st, err := exec1(ctx, cs, "return 1"); err != nil || st != "completed" {
				errs[i] = fmt.Errorf("return 1: %s %v", st, err)
			}
		})
	}
	wg.Wait()
	took := time.Since(t0)
	defer func() {
		for _, cs := range open {
			if cs != nil {
				cs.Close()
			}
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	rss, hwm, err := s.mem()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d sessions, one `return 1` each, in %v; with every session open: %s resident, peak (VmHWM) %s\n",
		n, took.Round(time.Millisecond), mib(rss), mib(hwm))
	return nil
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
