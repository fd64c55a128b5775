package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	goruntime "runtime" // the package has a test helper named runtime
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds on what a stdio server's stray output costs the log.
const (
	// maxSkippedLogged is how many non-JSON-RPC stdout lines of one process
	// are logged; later ones are skipped silently.
	maxSkippedLogged = 20
	// skippedLineBytes is how much of a skipped line is logged.
	skippedLineBytes = 200
	// stderrTailBytes is how much of the end of a stdio server's stderr is
	// kept for the warning logged when it fails.
	stderrTailBytes = 2 << 10
)

// stdioTransport starts a stdio server the way [sdk.CommandTransport] does
// (and closes it the same way: stdin closed, then SIGTERM, then SIGKILL,
// terminateAfter apart), but reads its stdout through [jsonLines], so a
// banner or a stray console.log on stdout is skipped with a warning instead
// of ending the session.
type stdioTransport struct {
	proc   *process
	logger *slog.Logger
}

// process is one run of a stdio server's command.
type process struct {
	cmd    *exec.Cmd
	stderr *stderrLog

	closeOnce sync.Once
	closeErr  error
	waited    chan struct{} // closed when cmd.Wait has returned
}

func newProcess(cfg ServerConfig, logger *slog.Logger) *process {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Cwd
	cmd.Env = serverEnv(cfg, os.Environ(), goruntime.GOOS)
	p := &process{cmd: cmd, stderr: &stderrLog{logger: logger}, waited: make(chan struct{})}
	cmd.Stderr = p.stderr
	// A process that exits leaving its stderr open in a child of its own
	// does not hold Wait (and so Close) past this.
	cmd.WaitDelay = terminateAfter
	return p
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	cmd := t.proc.cmd
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// The connection is closed by closing stdin (processStdin.Close), not
	// stdout: Wait closes stdout once the process has exited.
	r := io.NopCloser(&jsonLines{r: bufio.NewReader(stdout), logger: t.logger})
	return (&sdk.IOTransport{Reader: r, Writer: processStdin{stdin, t.proc}}).Connect(ctx)
}

// processStdin is the process's stdin; closing it ends the process.
type processStdin struct {
	io.WriteCloser
	p *process
}

func (w processStdin) Close() error { return w.p.close(w.WriteCloser) }

// close closes stdin and waits for the process to exit; one that has not
// exited terminateAfter later is sent SIGTERM, and SIGKILL another
// terminateAfter later.
func (p *process) close(stdin io.Closer) error {
	p.closeOnce.Do(func() {
		stdin.Close()
		go func() {
			p.cmd.Wait()
			close(p.waited)
		}()
		exited := func() bool {
			select {
			case <-p.waited:
				return true
			case <-time.After(terminateAfter):
				return false
			}
		}
		if exited() {
			return
		}
		if p.cmd.Process.Signal(syscall.SIGTERM) == nil && exited() {
			return
		}
		if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			p.closeErr = err
			return
		}
		if !exited() {
			p.closeErr = errors.New("unresponsive subprocess")
		}
	})
	return p.closeErr
}

// failure describes how the process ended for the warning logged when its
// server goes down: its exit status and the end of its stderr. It is only
// complete once the session over it has been closed.
func (p *process) failure() []any {
	var attrs []any
	select {
	case <-p.waited:
		if ps := p.cmd.ProcessState; ps != nil {
			attrs = append(attrs, "exit", ps.String())
		}
	default:
	}
	if tail := p.stderr.tail(); tail != "" {
		attrs = append(attrs, "stderr", tail)
	}
	return attrs
}

// jsonLines passes on the lines of a stdio server's stdout that are JSON-RPC
// messages (a JSON object with "jsonrpc": "2.0", or a batch of them) and
// skips any other line with a warning: the first maxSkippedLogged are
// logged, cut to skippedLineBytes. A line longer than maxMessageBytes ends
// the stream, as the SDK's own bound on stdio messages does.
type jsonLines struct {
	r       *bufio.Reader
	logger  *slog.Logger
	line    []byte // the line being read
	out     []byte // the rest of the last accepted line, not yet read
	err     error  // the error after the last line
	skipped int
}

var errLineTooLong = fmt.Errorf("MCP server wrote a stdout line larger than %d MiB", maxMessageBytes>>20)

func (j *jsonLines) Read(p []byte) (int, error) {
	for len(j.out) == 0 {
		if j.err != nil {
			return 0, j.err
		}
		line, err := j.readLine()
		j.err = err // after the line: a last line without a newline still counts
		j.accept(line)
	}
	n := copy(p, j.out)
	j.out = j.out[n:]
	return n, nil
}

func (j *jsonLines) readLine() ([]byte, error) {
	if cap(j.line) > 64<<10 {
		j.line = nil // do not hold on to the buffer of one large message
	}
	j.line = j.line[:0]
	for {
		chunk, err := j.r.ReadSlice('\n')
		if len(j.line)+len(chunk) > maxMessageBytes+2 { // +2: room for "\r\n"
			return nil, errLineTooLong
		}
		j.line = append(j.line, chunk...)
		if err != bufio.ErrBufferFull {
			return j.line, err
		}
	}
}

func (j *jsonLines) accept(line []byte) {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return
	}
	if isJSONRPC(msg) {
		j.out = append(msg, '\n')
		return
	}
	j.skipped++
	if j.skipped > maxSkippedLogged {
		return
	}
	shown := msg
	if len(shown) > skippedLineBytes {
		shown = shown[:skippedLineBytes]
	}
	attrs := []any{"line", strings.ToValidUTF8(string(shown), string(utf8.RuneError))}
	if len(msg) > skippedLineBytes {
		attrs = append(attrs, "bytes", len(msg))
	}
	if j.skipped == maxSkippedLogged {
		attrs = append(attrs, "note", "further skipped lines are not logged")
	}
	j.logger.Warn("MCP server wrote a line that is not JSON-RPC on stdout; skipped", attrs...)
}

// isJSONRPC reports whether msg is one JSON-RPC message or a batch of them.
func isJSONRPC(msg []byte) bool {
	type head struct {
		JSONRPC string `json:"jsonrpc"`
	}
	switch msg[0] {
	case '{':
		var h head
		return json.Unmarshal(msg, &h) == nil && h.JSONRPC == "2.0"
	case '[':
		var batch []head
		if json.Unmarshal(msg, &batch) != nil || len(batch) == 0 {
			return false
		}
		for _, h := range batch {
			if h.JSONRPC != "2.0" {
				return false
			}
		}
		return true
	}
	return false
}

// stderrLog forwards a stdio server's stderr to the logger at info level,
// a line at a time under the server's limit (logs.go), and keeps its last
// stderrTailBytes for the warning logged when the server fails.
type stderrLog struct {
	logger *slog.Logger
	limit  *logLimit // nil: one of its own
	mu     sync.Mutex
	buf    []byte
	last   []byte // the end of stderr: at least its last stderrTailBytes
	total  int64  // bytes written
}

func (w *stderrLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.keep(p)
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.line(bytes.TrimRight(w.buf[:i], "\r"))
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > logLineBytes { // a line without end is logged in pieces
		w.line(w.buf)
		w.buf = w.buf[:0]
	}
	return len(p), nil
}

// line logs one line; w.mu is held.
func (w *stderrLog) line(b []byte) {
	if w.limit == nil {
		w.limit = &logLimit{}
	}
	line, attrs := cutLine(b)
	logLine(w.logger, w.limit, slog.LevelInfo, "MCP server stderr", append([]any{"line", line}, attrs...)...)
}

// keep adds p to the end of stderr kept for tail.
func (w *stderrLog) keep(p []byte) {
	w.total += int64(len(p))
	if len(p) > stderrTailBytes {
		p = p[len(p)-stderrTailBytes:]
	}
	w.last = append(w.last, p...)
	if len(w.last) > 2*stderrTailBytes {
		w.last = append(w.last[:0], w.last[len(w.last)-stderrTailBytes:]...)
	}
}

// tail is the last stderrTailBytes of stderr written so far, from a line
// start when that cut it, as valid UTF-8 without surrounding space.
func (w *stderrLog) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.last[max(0, len(w.last)-stderrTailBytes):]
	if w.total > int64(len(b)) {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(b), string(utf8.RuneError)))
}
