package reliability

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	mcpplugin "github.com/seed11a79d2d/codemode/plugins/mcp"
	"github.com/seed11a79d2d/codemode/tool"
)

// corpusConfig keeps hostile cells quick: a 2 s wall clock, an 8 MiB heap,
// 8 KiB of output and 16 pending calls.
var corpusConfig = corpusConfigWith(2000)

// roomyTimeoutMs is the wall clock of cells whose outcome is not reaching
// it: far beyond what any of them needs, so a loaded machine can slow them
// down but not change their verdict.
const roomyTimeoutMs = 30000

func corpusConfigWith(timeoutMs int) string {
	return fmt.Sprintf(`{"enabled": true, "timeoutMs": %d, "memoryLimitBytes": 8388608,
	"maxOutputBytes": 8192, "maxSnapshotBytes": 1048576, "maxPendingToolCalls": 16, "snapshotTtlSeconds": 60}`, timeoutMs)
}

var testScope = tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s1", RunID: "r1"}

// world is the set of tools every corpus cell sees: core, plugin, denied,
// direct-only and MCP tools, an MCP resource and a denied MCP prompt, and
// one plugin namespace.
type world struct {
	tools      []tool.Tool
	secretHits atomic.Int64 // calls of tools no cell may reach
	mcp        *mcpplugin.Client
}

func (w *world) secret(name string) tool.Tool {
	return tool.Tool{Name: name, Plugin: "tracker", Description: "Must never run from a hostile cell.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			w.secretHits.Add(1)
			return tool.Result{Details: "secret"}, nil
		}}
}

func newWorld(t testing.TB) *world {
	w := &world{}
	obj := json.RawMessage(`{"type":"object"}`)
	w.tools = []tool.Tool{
		{Name: "count", Description: "Return 1.", InputSchema: obj,
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				return tool.Result{Details: 1}, nil
			}},
		{Name: "echo", Plugin: "demo", Description: "Echo the input.", InputSchema: obj,
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				var v any
				if err := json.Unmarshal(c.Input, &v); err != nil {
					return tool.Result{}, err
				}
				return tool.Result{Details: v}, nil
			}},
		{Name: "sleep", Description: "Sleep ms milliseconds.", InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"number"}}}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				var in struct{ MS int }
				json.Unmarshal(c.Input, &in)
				select {
				case <-time.After(time.Duration(in.MS) * time.Millisecond):
					return tool.Result{Details: in.MS}, nil
				case <-ctx.Done():
					return tool.Result{}, ctx.Err()
				}
			}},
		{Name: "big", Description: "Return n bytes of text.", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				var in struct{ N int }
				json.Unmarshal(c.Input, &in)
				return tool.Result{Details: strings.Repeat("a", min(in.N, 64<<20))}, nil
			}},
		{Name: "fail", Description: "Fail with a host error.", InputSchema: obj,
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				return tool.Result{}, errors.New("host failure at /etc/secret")
			}},
		{Name: "issues_list", Plugin: "tracker", Description: "List issues.", InputSchema: obj,
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				return tool.Result{Details: []any{map[string]any{"id": 1, "input": json.RawMessage(c.Input)}}}, nil
			}},
		// issues_delete is owned by the namespace's plugin but not declared by
		// it: cells may call it by id, never through the namespace.
		{Name: "issues_delete", Plugin: "tracker", Description: "Delete an issue.", InputSchema: obj,
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				return tool.Result{Details: "deleted"}, nil
			}},
		w.secret("admin_reset"), // denied by the run's policy
		w.secret("guarded"),     // needs an approval the run never gets
		{Name: "screenshot", DirectOnly: true, Description: "Direct-only.", InputSchema: obj,
			Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
				w.secretHits.Add(1)
				return tool.Result{}, nil
			}},
	}
	return w
}

// startMCP connects an in-process MCP server named "docs" through plugins/mcp.
func (w *world) startMCP(t testing.TB) []tool.Source {
	srv := sdk.NewServer(&sdk.Implementation{Name: "docs", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "search_docs", Description: "Search the docs.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
		func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "found"}}}, nil
		})
	srv.AddTool(&sdk.Tool{Name: "drop_table", Description: "Drop a table.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			w.secretHits.Add(1)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "dropped"}}}, nil
		})
	srv.AddResource(&sdk.Resource{URI: "memo://one", Name: "one"}, func(ctx context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "memo://one", Text: "memo"}}}, nil
	})
	// The run's policy denies prompts/get: the prompt may be listed, never
	// fetched.
	srv.AddPrompt(&sdk.Prompt{Name: "secret"}, func(ctx context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		w.secretHits.Add(1)
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "secret"}}}}, nil
	})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcpplugin.Start(context.Background(), &mcpplugin.Options{Servers: map[string]mcpplugin.ServerConfig{"docs": {Transport: ct}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		ss.Close()
	})
	w.mcp = c
	return []tool.Source{c}
}

// corpusPolicy denies the world's admin tool and every server's prompts/get:
// the corpus checks that neither can be reached.
//
// Calls of guarded, and of MCP tools annotated destructive (docs's
// drop_table), need approval, which corpusHooks always declines: the
// corpus checks that no path reaches them.
var corpusPolicy = host.Policy{Deny: []string{"admin_reset", "prompts/get"}, Approval: []string{"guarded"}, ApproveDestructive: true}

var corpusHooks = tool.Hooks{Approve: func(context.Context, tool.Event) (bool, string, error) {
	return false, "the corpus's person declines", nil
}}

func newRuntime(t testing.TB, w *world, config string, sources ...tool.Source) *host.Runtime {
	t.Helper()
	return newWorldRuntime(t, w, &host.Options{Sources: sources, CodeMode: hosttest.CodeMode(json.RawMessage(config))})
}

// newWorldRuntime is a runtime of o over the world's tools, with the
// corpus's engine, policy, hooks and namespace.
func newWorldRuntime(t testing.TB, w *world, o *host.Options) *host.Runtime {
	t.Helper()
	o.Tools, o.Policy, o.Hooks = w.tools, &corpusPolicy, corpusHooks
	if o.Engine == nil {
		o.Engine = corpusEngine(t)
	}
	rt, err := host.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.RegisterNamespace("tracker", tool.Namespace{ID: "tracker.issues", GlobalName: "Issues",
		Description: "Issues of the tracker.", RequiredToolNames: []string{"issues_list"},
		CreateScope: func(ctx context.Context, nc tool.NamespaceContext) (any, error) {
			return map[string]any{"list": tool.NamespaceTool("issues_list", nil), "limits": map[string]any{"max": 50}}, nil
		}}); err != nil {
		t.Fatal(err)
	}
	// Closes a runtime the test left open without keeping a closed one
	// alive: the heap checks measure what Close gives back.
	ref := weak.Make(rt)
	t.Cleanup(func() {
		if rt := ref.Value(); rt != nil {
			rt.Close(context.Background())
		}
	})
	return rt
}

func prepare(t testing.TB, rt *host.Runtime, scope tool.Scope) *host.Run {
	t.Helper()
	run, err := rt.Prepare(host.RunOptions{Scope: scope})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func execArgs(src string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"code": src})
	return b
}

func waitArgs(runID string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"runId": runID})
	return b
}

func describe(r host.Result) string {
	e := r.Error
	if len(e) > 300 {
		e = fmt.Sprintf("%s... (%d bytes)", e[:300], len(e))
	}
	s := fmt.Sprintf("%s %s %q", r.Status, r.Code, e)
	if r.Status == host.StatusCompleted {
		v := string(r.Value)
		if len(v) > 200 {
			v = v[:200] + "..."
		}
		s = "completed " + v
	}
	return s
}

func ptr[T any](v T) *T { return &v }
