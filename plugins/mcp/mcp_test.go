package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/tool"
)

func start(t testing.TB, opts *Options) *Client {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// runtime is a code-mode runtime over the client; config is tools.codeMode.
func runtime(t testing.TB, c *Client, config string) *host.Run {
	t.Helper()
	rt, err := host.New(context.Background(), &host.Options{CodeMode: hosttest.CodeMode(json.RawMessage(config)), Sources: []tool.Source{c}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{SessionID: "s", RunID: "r"}})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// value runs a cell that must complete and decodes its value.
func value(t testing.TB, run *host.Run, code string) map[string]any {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"code": code})
	r := run.Exec(context.Background(), "call_1", args)
	if r.Status != host.StatusCompleted {
		b, _ := json.Marshal(r)
		t.Fatalf("exec: %s", b)
	}
	var out map[string]any
	if err := json.Unmarshal(r.Value, &out); err != nil {
		t.Fatalf("value %s: %v", r.Value, err)
	}
	return out
}

func toolNames(c *Client) []string {
	var names []string
	for _, t := range c.Tools() {
		names = append(names, t.Name)
	}
	return names
}

func TestToolsListed(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": inProcess(t)}})
	// Pages of two; "broken" is dropped for its schema.
	want := "[add_tool die echo environ fail picture pid rpc_error slow]" // the Go SDK lists by name
	if got := fmt.Sprint(toolNames(c)); got != want {
		t.Fatalf("tools %s, want %s", got, want)
	}
	for _, tool := range c.Tools() {
		if tool.MCPServer != "test" || tool.DirectOnly != (tool.Name == "picture") {
			t.Errorf("%s: server %q direct-only %v", tool.Name, tool.MCPServer, tool.DirectOnly)
		}
	}
}

func TestNamespace(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": inProcess(t)}})
	run := runtime(t, c, `true`)
	out := value(t, run, `
		const out = {};
		out.echo = (await MCP.test.echo({text: "hi"})).structuredContent;
		out.fail = await MCP.test.fail({});
		try { await MCP.test.rpcError(); } catch (e) { out.rpc = e.message; }
		try { await MCP.test.echo({}); } catch (e) { out.missing = e.message; }
		out.resource = (await MCP.test.resources.read({uri: "memo://one"})).contents[0].text;
		out.resources = (await MCP.test.resources.list()).resources.map(r => r.uri);
		out.prompt = (await MCP.test.prompts.get({name: "brief", arguments: {topic: "release"}})).messages[0].content.text;
		out.prompts = (await MCP.test.prompts.list()).prompts.map(p => p.name);
		out.dts = (await API.read("mcp/test.d.ts")).includes("function echo(input: {");
		try { await MCP.test.resources.read({uri: "memo://none"}); } catch (e) { out.noResource = e.message; }
		return out;`)
	want := map[string]string{
		"echo":       `map[n:1 text:hi]`,
		"fail":       `map[content:[map[text:it failed type:text]] isError:true]`,
		"rpc":        `MCP server test: tool rpc_error failed: bad things (code -32602)`,
		"missing":    `Missing required MCP namespace argument: text`,
		"resource":   `hello`,
		"resources":  `[memo://one]`,
		"prompt":     `Brief on release`,
		"prompts":    `[brief]`,
		"dts":        `true`,
		"noResource": `MCP server test: resources/read failed: Resource not found (code -32602)`,
	}
	for k, w := range want {
		if got := fmt.Sprint(out[k]); got != w {
			t.Errorf("%s: got %s, want %s", k, got, w)
		}
	}
	for _, d := range run.Tools() {
		if d.Name == "picture" {
			return
		}
	}
	t.Errorf("direct-only picture is not model-visible: %v", run.Tools())
}

func TestNullArgumentsSentAsEmptyObject(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": inProcess(t)}})
	for _, tl := range c.Tools() {
		if tl.Name != "echo" {
			continue
		}
		for _, in := range []string{"", "null"} {
			res, err := tl.Execute(context.Background(), tool.Call{Input: json.RawMessage(in)})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Content[0]); !strings.Contains(got, `args: {}`) {
				t.Errorf("input %q reached the server as %s", in, got)
			}
		}
	}
}

func TestDirectOnlyPassesResultThrough(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": inProcess(t)}})
	for _, tl := range c.Tools() {
		if tl.Name == "picture" {
			res, err := tl.Execute(context.Background(), tool.Call{})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Content[0]); got != `{"type":"image","mimeType":"image/png","data":"iVBORw=="}` {
				t.Fatalf("content %s", got)
			}
			return
		}
	}
	t.Fatal("no picture tool")
}

func TestCallTimeout(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": inProcess(t)}, CallTimeout: 100 * time.Millisecond})
	run := runtime(t, c, `true`)
	out := value(t, run, `
		try { await MCP.test.slow({ms: 5000}); return {}; } catch (e) { return {err: e.message}; }`)
	if got := fmt.Sprint(out["err"]); got != "MCP server test: tool slow timed out after 100ms" {
		t.Fatalf("got %q", got)
	}
}

func TestListChangedRefreshesTools(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": inProcess(t)}})
	run := runtime(t, c, `true`)
	value(t, run, `await MCP.test.addTool(); return {};`)
	deadline := time.Now().Add(30 * time.Second) // liveness, not speed
	for !strings.Contains(fmt.Sprint(toolNames(c)), "added") {
		if time.Now().After(deadline) {
			t.Fatalf("tools after list_changed: %v", toolNames(c))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A run prepared now sees the new tool.
	out := value(t, runtime(t, c, `true`), `return {text: (await MCP.test.added()).content[0].text};`)
	if out["text"] != "new" {
		t.Fatalf("added tool: %v", out)
	}
}

func TestCrashRestartsServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	c := start(t, &Options{Servers: map[string]ServerConfig{"test": subprocess(t)}})
	run := runtime(t, c, `true`)
	before := value(t, run, `return (await MCP.test.pid()).structuredContent;`)
	out := value(t, run, `
		const out = {};
		try { await MCP.test.die(); } catch (e) { out.died = e.message; }
		try { await MCP.test.pid(); out.next = "answered"; } catch (e) { out.next = e.message; }
		return out;`)
	if got := fmt.Sprint(out["died"]); got != "MCP server test: connection lost during tool die" {
		t.Errorf("dying call: %q", got)
	}
	if got := fmt.Sprint(out["next"]); !strings.HasPrefix(got, "MCP server test is unavailable") {
		t.Errorf("call during the outage: %q", got)
	}
	deadline := time.Now().Add(30 * time.Second) // liveness: a restart spawns a process
	for {
		after := value(t, run, `try { return (await MCP.test.pid()).structuredContent; } catch (e) { return {err: e.message}; }`)
		if after["pid"] != nil {
			if after["pid"] == before["pid"] {
				t.Fatalf("same pid %v after restart", after["pid"])
			}
			if st := c.Servers(); len(st) != 1 || !st[0].Up || st[0].Connects != 2 {
				t.Fatalf("state after a restart: %+v", st)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not back: %v", after)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStartRejectsBadConfig(t *testing.T) {
	for _, cfg := range []ServerConfig{{}, {Command: "x", URL: "http://127.0.0.1:1/"}} {
		if _, err := Start(context.Background(), &Options{Servers: map[string]ServerConfig{"s": cfg}}); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

func TestUnstartableServerIsRetriedNotFatal(t *testing.T) {
	c := start(t, &Options{Servers: map[string]ServerConfig{"gone": {Command: "/nonexistent/codemode-test-server"}}})
	if len(c.Tools()) != 0 {
		t.Fatal("tools from a server that never started")
	}
	if st := c.Servers(); len(st) != 1 || st[0].Name != "gone" || st[0].Up || st[0].Connects != 0 {
		t.Fatalf("state of a server that never started: %+v", st)
	}
	if _, err := c.MCPRequest(context.Background(), "gone", "resources/list", nil); err == nil || !strings.Contains(err.Error(), "unavailable") {
		t.Fatalf("request to a down server: %v", err)
	}
	if _, err := c.MCPRequest(context.Background(), "other", "resources/list", nil); err != tool.ErrUnknownServer {
		t.Fatalf("unknown server: %v", err)
	}
}

func TestCheckInputSchema(t *testing.T) {
	for schema, ok := range map[string]bool{
		`{"type":"object"}`: true,
		`{"properties":{"a":{"type":"string"},"b":true},"required":["a"]}`: true,
		`{"type":"string"}`:                      false,
		`[1]`:                                    false,
		`{"type":"object","properties":[]}`:      false,
		`{"type":"object","properties":{"a":1}}`: false,
		`{"type":"object","required":"a"}`:       false,
	} {
		var v any
		json.Unmarshal([]byte(schema), &v)
		if _, err := checkInputSchema(v); (err == nil) != ok {
			t.Errorf("%s: err %v", schema, err)
		}
	}
}
