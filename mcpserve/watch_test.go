package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// lateSource is a source whose MCP server connects after serve started.
type lateSource struct {
	tools   atomic.Pointer[[]tool.Tool]
	version atomic.Uint64
}

func (s *lateSource) Tools() []tool.Tool {
	if p := s.tools.Load(); p != nil {
		return *p
	}
	return nil
}

func (s *lateSource) Version() uint64 { return s.version.Load() }

// A server whose tools arrive after the client connected reaches it as a
// tools/list_changed and a new exec description.
func TestLateToolsReachTheClient(t *testing.T) {
	src := &lateSource{}
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Sources: []tool.Source{src},
		Tools: []tool.Tool{{Name: "add", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) { return tool.Result{}, nil }}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	changed := make(chan struct{}, 8)
	cs := (&fixture{rt: rt}).stdio(t, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	describe := func() string {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range res.Tools {
			if tool.Name == "exec" {
				return tool.Description
			}
		}
		t.Fatal("no exec")
		return ""
	}
	if strings.Contains(describe(), "MCP.docs") {
		t.Fatal("the server's tools before it connected")
	}
	src.tools.Store(&[]tool.Tool{{Name: "search_docs", MCPServer: "docs", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{}, nil
	}}})
	src.version.Add(1)
	select {
	case <-changed:
	case <-time.After(time.Minute):
		t.Fatal("no tools/list_changed")
	}
	if !strings.Contains(describe(), "MCP.docs") {
		t.Fatal("the new tools are not in the exec description")
	}
}

// With code mode off every field of a passed-through tool reaches the
// client, and of two servers' tools of one name the first stays, with a
// warning for the other; a tool whose input schema the SDK would panic on
// is refused alone.
func TestPassThroughKeepsEveryField(t *testing.T) {
	mkTool := func(name, server string) tool.Tool {
		return tool.Tool{Name: name, MCPServer: server, Label: "Read the " + server + " graph",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
			Annotations:  json.RawMessage(`{"readOnlyHint":true,"openWorldHint":false}`),
			Execute:      func(ctx context.Context, c tool.Call) (tool.Result, error) { return tool.Result{}, nil }}
	}
	bad := mkTool("bad_schema", "b")
	bad.InputSchema = json.RawMessage(`{"type":"string"}`)
	var logs syncLog
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{}, Logger: logs.logger(),
		Tools: []tool.Tool{mkTool("read_graph", "a"), mkTool("read_graph", "b"), bad}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	cs := servePipes(t, rt, Options{Logger: logs.logger()}, &sdk.ClientOptions{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 {
		t.Fatalf("%d tools, want read_graph once", len(res.Tools))
	}
	got := res.Tools[0]
	if got.Title != "Read the a graph" || got.OutputSchema == nil || got.Annotations == nil || !got.Annotations.ReadOnlyHint ||
		got.Annotations.OpenWorldHint == nil || *got.Annotations.OpenWorldHint {
		t.Errorf("fields lost: %+v %+v", got, got.Annotations)
	}
	for _, want := range []string{"model-visible tool dropped", "mcp:b:read_graph", "tool not served", "bad_schema"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, logs.String())
		}
	}
}

// syncLog is a log that tests read back.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *syncLog) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// servePipes serves rt over in-process pipes with o (In and Out are its
// own) and connects a client with copts as given.
func servePipes(t testing.TB, rt *host.Runtime, o Options, copts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, copts).Connect(context.Background(), pipeTransport(t, rt, o), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// pipeTransport serves rt over pipes until the client closes them and
// returns the client's end.
func pipeTransport(t testing.TB, rt *host.Runtime, o Options) sdk.Transport {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	o.In, o.Out = sr, sw
	if o.Logger == nil {
		o.Logger = testLogger(t)
	}
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), rt, &o) }()
	t.Cleanup(func() {
		cw.Close()
		<-done
	})
	return &sdk.IOTransport{Reader: cr, Writer: cw}
}
