package reliability

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// binaryConfig is TestLoad's code mode setting (loadConfig) for the codemode binary, with
// the demo plugin for a fast, read-only tool to call.
const binaryConfig = `{
  tools: { codeMode: { enabled: true, timeoutMs: 60000, maxPendingToolCalls: 16 } },
  plugins: { demo: true },
}`

// TestLoadBinary is TestLoad against the process users run: the codemode
// binary, built without the race detector, serving streamable HTTP on
// loopback (`codemode serve --http 127.0.0.1:0`). The nested-call heavy cell
// calls the demo's openclaw:demo:shipping_list. After the last cell, with
// every session still open, the binary gets SIGINT and must exit 0.
//
// Peak memory is the child's VmHWM (Linux only); its goroutines cannot be
// seen from outside, so that column reads n/a. The knobs are TestLoad's:
// CODEMODE_LOAD_SECONDS (default 5 here, to keep make test short) and
// CODEMODE_LOAD_SESSIONS (default 200).
func TestLoadBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("load profile")
	}
	c := startServe(t, binaryConfig)
	cmd, url := c.cmd, c.url
	peak := "n/a"
	var stopErr error
	var stopped time.Duration
	hold := func() {
		if runtime.GOOS == "linux" {
			peak = vmHWM(t, cmd.Process.Pid)
		}
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			stopErr = err
			return
		}
		t0 := time.Now()
		select {
		case <-c.exited:
			stopErr, stopped = c.waitErr, time.Since(t0)
		case <-time.After(10 * time.Second):
			stopErr = errors.New("still running 10 s after SIGINT")
		}
	}
	r := runLoad(url, loadCells("openclaw:demo:shipping_list"), envInt("CODEMODE_LOAD_SESSIONS", 200), envInt("CODEMODE_LOAD_SECONDS", 5), hold)
	if stopErr != nil {
		t.Errorf("codemode serve, stopped by SIGINT with %d sessions open: %v\n%s", r.sessions, stopErr, c.log)
	} else {
		t.Logf("codemode serve exited 0 %v after SIGINT with %d sessions open", stopped.Round(time.Millisecond), r.sessions)
	}
	r.report(t, "n/a (not observable outside the process)", "peak RSS (VmHWM)", peak)
}

// served is a codemode serve --http child process.
type served struct {
	cmd     *exec.Cmd
	url     string
	log     *childLog
	exited  chan struct{}
	waitErr error // set before exited closes
}

// startServe builds the binary (without the race detector) and starts
// `codemode serve --http 127.0.0.1:0` with config; the process is killed
// when the test ends if it still runs.
func startServe(t *testing.T, config string) *served {
	t.Helper()
	dir := t.TempDir()
	return launchServe(t, buildBinary(t, dir), dir, config, false)
}

// buildBinary builds the codemode command into dir.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "codemode")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/seed11a79d2d/codemode/cmd/codemode").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// launchServe starts `bin serve --config FILE --http 127.0.0.1:0` and args,
// with config written to dir, and waits for the URL it serves. When the test
// ends a process still running is stopped: with SIGINT first when graceful
// (so that it stops its MCP servers), then with a kill.
func launchServe(t *testing.T, bin, dir, config string, graceful bool, args ...string) *served {
	t.Helper()
	file := filepath.Join(dir, "codemode.json5")
	if err := os.WriteFile(file, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &served{log: &childLog{url: make(chan string, 1)}, exited: make(chan struct{})}
	c.cmd = exec.Command(bin, append([]string{"serve", "--config", file, "--http", "127.0.0.1:0"}, args...)...)
	c.cmd.Stderr = c.log
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.waitErr = c.cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-c.exited:
			return
		default:
		}
		if graceful {
			c.cmd.Process.Signal(os.Interrupt)
			select {
			case <-c.exited:
				return
			case <-time.After(20 * time.Second):
			}
		}
		c.cmd.Process.Kill()
		<-c.exited
	})
	select {
	case c.url = <-c.log.url:
	case <-c.exited:
		t.Fatalf("codemode serve exited before serving: %v\n%s", c.waitErr, c.log)
	case <-time.After(60 * time.Second):
		t.Fatalf("codemode serve logged no URL in 60 s:\n%s", c.log)
	}
	return c
}

// vmHWM is the peak resident set size of process pid, from /proc.
func vmHWM(t *testing.T, pid int) string {
	kb := peakKiB(pid)
	if kb == 0 {
		t.Errorf("peak memory: no VmHWM in /proc/%d/status", pid)
		return "n/a"
	}
	return strconv.Itoa(kb>>10) + " MiB"
}

// servingURL matches the line codemode serve logs once it listens.
var servingURL = regexp.MustCompile(`msg="serving MCP over streamable HTTP" url=(\S+)`)

// childLog is the child's stderr: kept (up to 64 KiB) for failure messages,
// and scanned for the URL it serves at, which is sent on url once.
type childLog struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	found bool
	url   chan string
}

func (l *childLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len() < 64<<10 {
		l.buf.Write(p)
	}
	if !l.found {
		if m := servingURL.FindSubmatch(l.buf.Bytes()); m != nil {
			l.found = true
			l.url <- string(m[1])
		}
	}
	return len(p), nil
}

func (l *childLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
