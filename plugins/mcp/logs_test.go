package mcp

//lint:file-ignore SA1019 the test server sends log messages as servers of 2025-11-25 and older do.

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/tool"
)

// The bucket gives logBurst lines at once, logRate a second after, and
// says how many it dropped in between.
func TestLogLimit(t *testing.T) {
	now := time.Unix(0, 0)
	l := &logLimit{now: func() time.Time { return now }}
	n := 0
	for range 3 * logBurst {
		if ok, _ := l.take(); ok {
			n++
		}
	}
	if n != logBurst {
		t.Fatalf("%d lines at once, want %d", n, logBurst)
	}
	now = now.Add(time.Second)
	n = 0
	var dropped int
	for range 3 * logBurst {
		if ok, d := l.take(); ok {
			n++
			dropped += d
		}
	}
	if n != logRate || dropped != 2*logBurst {
		t.Errorf("a second later: %d lines, %d reported dropped; want %d and %d", n, dropped, logRate, 2*logBurst)
	}
}

// A stdio server flooding its stderr (60 MB, and a 1 MiB line without end)
// is answered all along, and its log stays within the rate, each line cut.
func TestStderrFloodIsBounded(t *testing.T) {
	logs := &logBuffer{}
	begin := time.Now()
	c := start(t, &Options{Servers: map[string]ServerConfig{"flood": misbehaving(t, "flood")},
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	for range 20 {
		if got := callTool(t, c, "echo", `{"text":"hi"}`); !strings.Contains(got, "hi") {
			t.Fatal(got)
		}
	}
	waitLog(t, logs, "dropped_before=")
	out := logs.String()
	elapsed := time.Since(begin)
	lines := strings.Count(out, "MCP server stderr")
	if max := logBurst + int(elapsed.Seconds()*logRate) + 2; lines > max {
		t.Errorf("%d stderr lines logged in %s, more than the %d the rate allows", lines, elapsed, max)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > logLineBytes+512 {
			t.Fatalf("a log line of %d bytes", len(line))
		}
	}
	if !strings.Contains(out, "server=flood") || !strings.Contains(out, "bytes=3000") {
		t.Errorf("stderr lines without the server or their size:\n%.2000s", out)
	}
}

// A server's log messages reach the log with its name, and the span of
// the call they came during, with no relay; a flood of them is bounded.
func TestLogMessagesWithoutRelay(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "chatty", Version: "1"}, &sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{Logging: &sdk.LoggingCapabilities{}}})
	s.AddTool(&sdk.Tool{Name: "talk", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "warning", Logger: "copier", Data: "disk almost full"})
		for i := range 5000 {
			req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Data: map[string]any{"i": i, "pad": strings.Repeat("p", 4000)}})
		}
		return &sdk.CallToolResult{Content: text("done")}, nil
	})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	_, cell := tp.Tracer("test").Start(context.Background(), "cell")
	logs := &logBuffer{}
	c := start(t, &Options{Servers: map[string]ServerConfig{"chatty": {Transport: ct}}, Tracer: tp,
		Logger:      slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
		CallContext: func(ctx context.Context, _ tool.Call) context.Context { return trace.ContextWithSpan(ctx, cell) }})
	begin := time.Now()
	callTool(t, c, "talk", `{}`)
	line := waitLog(t, logs, "disk almost full")
	if !strings.Contains(line, "level=WARN") || !strings.Contains(line, "server=chatty") || !strings.Contains(line, "logger=copier") {
		t.Errorf("log line: %s", line)
	}
	if n, max := strings.Count(logs.String(), "MCP server log message"), logBurst+int(time.Since(begin).Seconds()*logRate)+2; n > max {
		t.Errorf("%d log messages logged, more than the %d the rate allows", n, max)
	}
	var events int
	for _, sp := range exp.GetSpans() {
		if sp.Name == "tools/call talk" {
			for _, e := range sp.Events {
				if e.Name == "log" {
					events++
				}
			}
		}
	}
	if events == 0 {
		t.Error("no log event on the call's span")
	}
}
