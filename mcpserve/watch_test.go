package mcpserve

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// lateSource is a source whose MCP server connects after serve started.
type lateSource struct {
	tools   atomic.Pointer[[]host.Tool]
	version atomic.Uint64
}

func (s *lateSource) Tools() []host.Tool {
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
	rt, err := host.New(context.Background(), &host.Options{Config: json.RawMessage(`true`), Sources: []host.Source{src},
		Tools: []host.Tool{{Name: "add", Execute: func(ctx context.Context, c host.Call) (host.ToolResult, error) { return host.ToolResult{}, nil }}}})
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
	src.tools.Store(&[]host.Tool{{Name: "search_docs", MCPServer: "docs", Execute: func(ctx context.Context, c host.Call) (host.ToolResult, error) {
		return host.ToolResult{}, nil
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
