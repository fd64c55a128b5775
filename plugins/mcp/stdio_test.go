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
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/seed11a79d2d/codemode/tool"
)

// logBuffer collects log output from any goroutine.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// captureLogs is a logger of warnings and worse into a buffer.
func captureLogs() (*slog.Logger, *logBuffer) {
	logs := &logBuffer{}
	return slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})), logs
}

// waitLog polls logs until a line contains want and returns that line.
func waitLog(t *testing.T, logs *logBuffer, want string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, want) {
				return line
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log line with %q in:\n%s", want, logs)
		}
	}
}

func callTool(t *testing.T, c *Client, name, input string) string {
	t.Helper()
	for _, tl := range c.Tools() {
		if tl.Name == name {
			res, err := tl.Execute(context.Background(), tool.Call{Input: json.RawMessage(input)})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return string(res.Content[0])
		}
	}
	t.Fatalf("no tool %s in %v", name, toolNames(c))
	return ""
}

// TestStdoutNoiseIsSkipped: a stdio server that writes a banner, a JSON log
// line and other lines that are not JSON-RPC on stdout before serving is
// connected; the first maxSkippedLogged of those lines are logged, cut to
// skippedLineBytes, and the rest skipped silently.
func TestStdoutNoiseIsSkipped(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	logger, logs := captureLogs()
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": misbehaving(t, "banner")}, Logger: logger})
	want := "[add_tool die echo environ fail picture pid rpc_error slow]"
	if got := fmt.Sprint(toolNames(c)); got != want {
		t.Fatalf("tools %s, want %s; log:\n%s", got, want, logs)
	}
	if got := callTool(t, c, "echo", `{"text":"hi"}`); !strings.Contains(got, `args: {\"text\":\"hi\"}`) {
		t.Fatalf("echo: %s", got)
	}
	out := logs.String()
	if got := strings.Count(out, "not JSON-RPC on stdout"); got != maxSkippedLogged {
		t.Errorf("%d skipped lines logged, want %d:\n%s", got, maxSkippedLogged, out)
	}
	for _, w := range []string{
		`line="Test MCP server v1 starting"`,
		`line="{\"level\":\"info\",`,
		`line="[INFO] xxx`, "bytes=1007",
		"further skipped lines are not logged",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("log lacks %s:\n%s", w, out)
		}
	}
	if strings.Contains(out, strings.Repeat("x", skippedLineBytes)) || strings.Contains(out, fmt.Sprintf("noise %d", maxSkippedLogged)) {
		t.Errorf("log is not bounded:\n%s", out)
	}
	if strings.Contains(out, "MCP server down") {
		t.Errorf("the server went down:\n%s", out)
	}
}

func TestJSONLines(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":2,"result":{"text":"` + strings.Repeat("y", 100<<10) + `"}}`
	in := strings.Join([]string{
		"",
		"  \r",
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\r",
		"hello",
		"[1,2]",
		"{not json",
		`{"jsonrpc":"1.0","id":3}`,
		big,
		`  [{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`,
		`[]`,
		`{"jsonrpc":"2.0","method":"last"}`, // no newline at the end
	}, "\n")
	logger, logs := captureLogs()
	j := &jsonLines{r: bufio.NewReaderSize(strings.NewReader(in), 16), logger: logger}
	got, err := io.ReadAll(j)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + big + "\n" +
		`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]` + "\n" + `{"jsonrpc":"2.0","method":"last"}` + "\n"
	if string(got) != want {
		t.Errorf("passed on:\n%.300s\nwant:\n%.300s", got, want)
	}
	if n := strings.Count(logs.String(), "not JSON-RPC"); n != 5 {
		t.Errorf("%d lines logged as skipped, want 5:\n%s", n, logs)
	}
}

func TestJSONLinesTooLong(t *testing.T) {
	in := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","method":"a"}`+"\n"), bytes.NewReader(bytes.Repeat([]byte("x"), maxMessageBytes+3)))
	j := &jsonLines{r: bufio.NewReader(in), logger: slog.New(slog.DiscardHandler)}
	got, err := io.ReadAll(j)
	if !errors.Is(err, errLineTooLong) || string(got) != `{"jsonrpc":"2.0","method":"a"}`+"\n" {
		t.Fatalf("got %.100q, %v", got, err)
	}
}

func TestStderrTail(t *testing.T) {
	w := &stderrLog{logger: slog.New(slog.DiscardHandler)}
	if w.tail() != "" {
		t.Fatal("tail of nothing")
	}
	w.Write([]byte("one\ntwo"))
	if got := w.tail(); got != "one\ntwo" {
		t.Fatalf("short tail %q", got)
	}
	for i := range 500 {
		fmt.Fprintf(w, "line %03d\n", i)
	}
	got := w.tail()
	if len(got) > stderrTailBytes || !strings.HasPrefix(got, "line ") || !strings.HasSuffix(got, "line 499") {
		t.Fatalf("tail of %d bytes: %.40q...%q", len(got), got, got[max(0, len(got)-20):])
	}
	w.Write([]byte(strings.Repeat("z", 3*stderrTailBytes) + "\xff\nend\n"))
	if got := w.tail(); got != "end" {
		t.Fatalf("tail after a long write: %q", got)
	}
	w.Write([]byte(strings.Repeat("é", stderrTailBytes)))
	if got := w.tail(); !utf8.ValidString(got) || !strings.HasSuffix(got, "é") {
		t.Fatalf("tail cut in a rune: %.20q", got)
	}
}

// TestFailingServerShowsStderr: a stdio server that exits at start is
// reported with its exit status and the end of its stderr.
func TestFailingServerShowsStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	logger, logs := captureLogs()
	start(t, &Options{Servers: map[string]ServerConfig{"bad": misbehaving(t, "fail")}, Logger: logger})
	line := waitLog(t, logs, "MCP server down")
	for _, w := range []string{failMessage, "starting up", "exit status 1", "server=bad"} {
		if !strings.Contains(line, w) {
			t.Errorf("warning lacks %q: %s", w, line)
		}
	}
}

// TestCloseStopsProcess: closing the client ends the stdio server, by
// closing its stdin, or with SIGTERM when it does not exit on that.
func TestCloseStopsProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	for _, mode := range []string{"", "linger"} {
		t.Run("mode="+mode, func(t *testing.T) {
			c := start(t, &Options{Servers: map[string]ServerConfig{"test": misbehaving(t, mode)}})
			s := c.servers["test"]
			s.mu.Lock()
			cmd := s.cmd
			s.mu.Unlock()
			if cmd == nil || cmd.Process == nil {
				t.Fatal("no process")
			}
			if got := callTool(t, c, "pid", `{}`); !strings.Contains(got, "pid") {
				t.Fatalf("pid: %s", got)
			}
			c.Close()
			ps := cmd.ProcessState // set: Close has waited for the process
			if ps == nil {
				t.Fatal("the process was not waited for")
			}
			if mode == "" && !ps.Exited() {
				t.Errorf("closing stdin: %s", ps)
			}
			if ws, ok := ps.Sys().(syscall.WaitStatus); mode == "linger" && (!ok || ws.Signal() != syscall.SIGTERM) {
				t.Errorf("lingering server: %s", ps)
			}
		})
	}
}
