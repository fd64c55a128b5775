package reliability

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

// fuzzConfig is the corpus configuration with the shortest wall clock, so a
// looping input costs 100 ms.
const fuzzConfig = `{"enabled": true, "timeoutMs": 100, "memoryLimitBytes": 4194304,
	"maxOutputBytes": 4096, "maxSnapshotBytes": 1048576, "maxPendingToolCalls": 8}`

// shared is one runtime per test process for the fuzz targets; TestMain
// closes it before checking for leaked goroutines.
var shared struct {
	once  sync.Once
	world *world
	rt    *host.Runtime
	err   error
}

func sharedRuntime(t testing.TB) (*world, *host.Runtime) {
	shared.once.Do(func() {
		shared.world = newWorld(t)
		shared.rt, shared.err = host.New(context.Background(), &host.Options{Tools: shared.world.tools, CodeMode: hosttest.CodeMode(json.RawMessage(fuzzConfig)), Policy: &corpusPolicy})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.world, shared.rt
}

func closeShared() {
	if shared.rt != nil {
		shared.rt.Close(context.Background())
	}
}

// checkResult holds for every result the host gives, whatever the input.
func checkResult(t *testing.T, r host.Result) {
	t.Helper()
	switch r.Status {
	case host.StatusCompleted:
		if !json.Valid(r.Value) {
			t.Fatalf("completed with invalid JSON %q", r.Value)
		}
	case host.StatusFailed:
		if !slices.Contains(abi.ErrorCodes, r.Code) || r.Error == "" {
			t.Fatalf("failed with code %q, error %q", r.Code, r.Error)
		}
	case host.StatusWaiting:
		if !strings.HasPrefix(r.RunID, "cm_") {
			t.Fatalf("waiting without a run id: %+v", r)
		}
	default:
		t.Fatalf("status %q", r.Status)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("result does not encode: %v", err)
	}
}

// FuzzExecCell sends any source through the whole exec path (input checks,
// TypeScript transform, module check, engine, bridge, limits). The result
// must be one of the three statuses with a public code, encode as JSON, and
// no unreachable tool may run. Seeds: every corpus cell not marked as a bug.
func FuzzExecCell(f *testing.F) {
	for _, c := range loadCorpus(f) {
		if c.want["bug"] == "" {
			f.Add(c.src, c.want["language"] == "typescript")
		}
	}
	f.Fuzz(func(t *testing.T, src string, ts bool) {
		w, rt := sharedRuntime(t)
		run, err := rt.Prepare(host.RunOptions{Scope: testScope})
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]string{"code": src}
		if ts {
			in["language"] = "typescript"
		}
		args, _ := json.Marshal(in)
		r := run.Exec(context.Background(), "fuzz", args)
		run.Abort()
		checkResult(t, r)
		if n := w.secretHits.Load(); n != 0 {
			t.Fatalf("an unreachable tool ran")
		}
	})
}

// scriptedEngine is an abi.Engine whose cells make one bridge request with
// an op and payload chosen by the fuzzer, then complete with a chosen value:
// it drives the host's dispatch payload parsing and result encoding with
// inputs no well-behaved prelude would send.
type scriptedEngine struct {
	op, payload, value string
	violation          atomic.Value // string
}

func (e *scriptedEngine) Capabilities() abi.Capabilities { return abi.Capabilities{Snapshot: true} }
func (e *scriptedEngine) Close(context.Context) error    { return nil }
func (e *scriptedEngine) NewCell(ctx context.Context, l abi.Limits, h abi.Host) (abi.Cell, error) {
	return &scriptedCell{e: e, h: h}, nil
}
func (e *scriptedEngine) Restore(ctx context.Context, img []byte, l abi.Limits, h abi.Host) (abi.Cell, error) {
	if string(img) != "scripted" {
		return nil, &abi.Failure{Kind: abi.FailureSnapshot, Message: "foreign image"}
	}
	return &scriptedCell{e: e, h: h}, nil
}

type scriptedCell struct {
	e *scriptedEngine
	h abi.Host
}

func (c *scriptedCell) Run(ctx context.Context, src, name string) abi.Step {
	if _, err := c.h.Request(c.e.op, c.e.payload); err != nil {
		return abi.Step{Status: abi.StepFailed, Failure: &abi.Failure{Name: "Error", Message: err.Error()}}
	}
	return abi.Step{Status: abi.StepPending}
}

func (c *scriptedCell) Settle(ctx context.Context, t abi.Ticket, o abi.Outcome) abi.Step {
	if !o.Rejected && !json.Valid([]byte(o.Value)) {
		c.e.violation.Store("resolved with invalid JSON: " + o.Value)
	}
	if err := c.h.Emit(abi.OutputText, o.Value); err != nil {
		return abi.Step{Status: abi.StepFailed, Failure: &abi.Failure{Name: "Error", Message: err.Error()}}
	}
	return abi.Step{Status: abi.StepCompleted, Value: c.e.value}
}

func (c *scriptedCell) Snapshot(ctx context.Context) ([]byte, error) { return []byte("scripted"), nil }
func (c *scriptedCell) Close(ctx context.Context) error              { return nil }

// FuzzBridgeCodec feeds the host's bridge any op, any payload and any value
// the engine claims the cell returned. Every request must settle, a resolved
// outcome must be valid JSON, and the result must be well formed; unreachable
// tools must not run whatever the payload names.
func FuzzBridgeCodec(f *testing.F) {
	seeds := [][3]string{
		{"search", `{"query":"echo","options":{"limit":3}}`, `1`},
		{"search", `{"query":1,"options":{"limit":-1}}`, `"x"`},
		{"describe", `{"id":"openclaw:tracker:admin_reset"}`, `null`},
		{"call", `{"id":"echo","input":{"a":[1,{"b":"\ud800"}]}}`, `{"a":1}`},
		{"callValue", `{"id":"openclaw:demo:echo","input":null}`, `[1,2`},
		{"callValue", `{"id":["count"]}`, `"\ud800"`},
		{"callValue", `{"id":"screenshot","input":{}}`, ``},
		{"callValue", `{"id":"big","input":{"n":5000}}`, `1e999`},
		{"callValue", `{"id":"sleep","input":{"ms":100000}}`, `1`},
		{"mcp", `{"id":"mcp:docs:search_docs","input":"x"}`, `1`},
		{"namespace", `{"id":"tracker.issues","path":"list","args":[{"state":"open"}]}`, `1`},
		{"namespace", `{"id":"tracker.issues","path":"__proto__","args":"x"}`, `1`},
		{"mcp_api", `{"server":"docs","selector":"../x","schema":true}`, `1`},
		{"mcp_request", `{"server":"docs","method":"tools/call","params":[]}`, `1`},
		{"yield", `{"reason":""}`, `1`},
		{"exec", `{"code":"return 1"}`, `1`},
		{"", ``, ``},
		{"callValue", `{"id":"echo","input":{"x":1},"id":"admin_reset"}`, `1`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2])
	}
	w := newWorld(f)
	f.Fuzz(func(t *testing.T, op, payload, value string) {
		e := &scriptedEngine{op: op, payload: payload, value: value}
		rt, err := host.New(context.Background(), &host.Options{Tools: w.tools, Engine: e, Policy: &corpusPolicy,
			CodeMode: hosttest.CodeMode(json.RawMessage(`{"enabled": true, "timeoutMs": 100, "maxOutputBytes": 1048576}`))})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close(context.Background())
		rt.RegisterNamespace("tracker", tool.Namespace{ID: "tracker.issues", GlobalName: "Issues",
			RequiredToolNames: []string{"issues_list"},
			CreateScope: func(ctx context.Context, nc tool.NamespaceContext) (any, error) {
				return map[string]any{"list": tool.NamespaceTool("issues_list", nil)}, nil
			}})
		run, err := rt.Prepare(host.RunOptions{Scope: testScope})
		if err != nil {
			t.Fatal(err)
		}
		r := run.Exec(context.Background(), "fuzz", execArgs("return 1"))
		if r.Status == host.StatusWaiting {
			r = run.Wait(context.Background(), waitArgs(r.RunID))
			run.Abort()
		}
		checkResult(t, r)
		if v, _ := e.violation.Load().(string); v != "" {
			t.Fatal(v)
		}
		if op != "callValue" && op != "call" || !strings.Contains(payload, "admin_reset") && !strings.Contains(payload, "screenshot") {
			return
		}
		if n := w.secretHits.Load(); n != 0 {
			t.Fatalf("an unreachable tool ran for %s %s", op, payload)
		}
	})
}

var jsIdentifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// FuzzMCPNames checks the MCP name mapping: whatever the server and tool
// names, every MCP.<server>.<tool> path is a pair of JS identifiers, unique,
// not shadowing $api, resources or prompts, and maps back to the exact
// catalog id mcp:<server>:<tool> of the tool it names.
func FuzzMCPNames(f *testing.F) {
	for _, s := range [][4]string{
		{"github", "create_issue", "createIssue", "create-issue"},
		{"chrome-devtools", "take_snapshot", "take snapshot", "$api"},
		{"1server", "resources", "prompts", "__proto__"},
		{"docs", "😀", "a.b", "constructor"},
		{"a:b", "x:y", "", "toString"},
		{"$api", "list_tools", "LIST_TOOLS", "list__tools"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, server, a, b, c string) {
		var tools []catalog.Tool
		for _, srv := range []string{server, server + "_2", strings.ToUpper(server)} {
			for _, name := range []string{a, b, c} {
				tools = append(tools, catalog.Tool{Name: name, Origin: catalog.OriginMCP, Owner: srv})
			}
		}
		cat, err := catalog.Build(tools, nil)
		if err != nil {
			if !errors.Is(err, catalog.ErrInvalidTool) && !errors.Is(err, catalog.ErrDuplicateID) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		servers := map[string]bool{}
		ids := map[string]bool{}
		for _, s := range cat.MCPServers() {
			if !jsIdentifier.MatchString(s.Identifier) || s.Identifier == "$api" || servers[s.Identifier] {
				t.Fatalf("server identifier %q for %q", s.Identifier, s.Name)
			}
			servers[s.Identifier] = true
			methods := map[string]bool{}
			for _, tool := range s.Tools {
				if !jsIdentifier.MatchString(tool.Identifier) || methods[tool.Identifier] ||
					tool.Identifier == "$api" || tool.Identifier == "resources" || tool.Identifier == "prompts" {
					t.Fatalf("tool identifier %q for %q on %q", tool.Identifier, tool.Name, s.Name)
				}
				methods[tool.Identifier] = true
				if want := "mcp:" + s.Name + ":" + tool.Name; tool.ID != want {
					t.Fatalf("id %q, want %q", tool.ID, want)
				}
				back, ok := cat.MCPTool(s.Identifier, tool.Identifier)
				if !ok || back.ID != tool.ID {
					t.Fatalf("MCP.%s.%s maps to %q, want %q", s.Identifier, tool.Identifier, back.ID, tool.ID)
				}
				if e, ok := cat.Lookup(tool.ID); !ok || e.Name != tool.Name || e.SourceName != s.Name {
					t.Fatalf("lookup %q: %+v", tool.ID, e)
				}
				ids[tool.ID] = true
			}
		}
		if n := cat.Len(); n != len(ids) {
			t.Fatalf("%d MCP entries, %d reachable through MCP", n, len(ids))
		}
		if len(cat.Guest()) != 0 {
			t.Fatalf("MCP entries leaked into ALL_TOOLS")
		}
	})
}

func init() {
	// The seed corpus reads testdata relative to the package directory.
	if _, err := os.Stat("testdata/hostile"); err != nil {
		panic("reliability tests must run in their package directory")
	}
}
