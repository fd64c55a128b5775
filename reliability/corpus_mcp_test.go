package reliability

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/mcpserve"
	"github.com/seed11a79d2d/codemode/tool"
)

// serveStdio serves rt with mcpserve over in-process pipes and connects a
// Go SDK client; the returned stop closes both ends and waits for Serve.
func serveStdio(t testing.TB, rt *host.Runtime) (*sdk.ClientSession, func()) {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- mcpserve.Serve(context.Background(), rt, &mcpserve.Options{In: sr, Out: sw}) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "reliability", Version: "1"}, nil).
		Connect(context.Background(), &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, func() {
		cs.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
}

// callResult calls an MCP tool and decodes its CodeModeResult.
func callResult(ctx context.Context, cs *sdk.ClientSession, name string, args any) (host.Result, bool, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return host.Result{}, false, err
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r host.Result
	err = json.Unmarshal(b, &r)
	return r, res.IsError, err
}

// TestHostileCorpusOverMCP runs the cells marked "mcp: yes" through mcpserve
// with the Go SDK client: the same outcome arrives as structuredContent,
// isError is set exactly on failed results, and the server keeps serving.
func TestHostileCorpusOverMCP(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	w := newWorld(t)
	// mcpserve prepares its own runs without a deny list: leave the denied
	// tool out of the runtime instead.
	w.tools = slices.DeleteFunc(w.tools, func(tool tool.Tool) bool { return tool.Name == "admin_reset" })
	sources := w.startMCP(t)
	rt := newRuntime(t, w, corpusConfig, sources...)
	cs, stop := serveStdio(t, rt)
	// Cells whose outcome is not the deadline get a roomy one (atDeadline).
	roomy := newRuntime(t, w, corpusConfigWith(roomyTimeoutMs), sources...)
	roomyCS, stopRoomy := serveStdio(t, roomy)
	n := 0
	for _, c := range loadCorpus(t) {
		if c.want["mcp"] != "yes" {
			continue
		}
		n++
		t.Run(c.name, func(t *testing.T) {
			var args map[string]any
			json.Unmarshal(c.args(), &args)
			client := roomyCS
			if c.atDeadline() {
				client = cs
			}
			r, isError, err := callResult(context.Background(), client, "exec", args)
			if err != nil {
				t.Fatal(err)
			}
			if d := c.check(r); d != "" {
				t.Errorf("%s\n got: %s", d, describe(r))
			}
			if isError != (r.Status == host.StatusFailed) {
				t.Errorf("isError %v on a %s result", isError, r.Status)
			}
		})
	}
	if n < 12 {
		t.Fatalf("only %d cells are marked for MCP", n)
	}
	r, _, err := callResult(context.Background(), cs, "exec", map[string]any{"code": "return 'healthy'"})
	if err != nil || string(r.Value) != `"healthy"` {
		t.Fatalf("server unhealthy after the corpus: %v %s", err, describe(r))
	}
	if n := w.secretHits.Load(); n != 0 {
		t.Errorf("unreachable tools ran %d times", n)
	}
	stop()
	stopRoomy()
	rt.Close(context.Background())
	roomy.Close(context.Background())
	w.mcp.Close()
	goleak.VerifyNone(t, leaks)
}
