package reliability

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	mcpplugin "github.com/seed11a79d2d/codemode/plugins/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// TestDownstreamFaults runs cells against downstream MCP servers that fail:
// the test binary as a stdio server (killed mid-call, hanging, flooding
// notifications) and a shell loop printing garbage instead of JSON-RPC.
// Each fault is a catchable error or a clean result in the cell, and the host
// keeps serving.
func TestDownstreamFaults(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcpplugin.Start(context.Background(), &mcpplugin.Options{
		CallTimeout: 1500 * time.Millisecond,
		Servers: map[string]mcpplugin.ServerConfig{
			"faulty":  {Command: exe, Env: map[string]string{helperEnv: "1"}},
			"garbage": {Command: "sh", Args: []string{"-c", `while :; do echo '{"jsonrpc":"2.0","id":1,"result":{garbage'; sleep 0.05; done`}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := newWorld(t)
	rt := newRuntime(t, w, `{"enabled": true, "timeoutMs": 3000}`, c)
	run := prepare(t, rt, testScope)
	ctx := context.Background()
	cases := []struct{ name, code, want string }{
		{"garbage server has no tools", `return Object.keys(MCP).filter((k) => k !== "$api")`, `["faulty"]`},
		{"healthy call", `return (await MCP.faulty.ok({})).content[0].text`, `"fine"`},
		{"hanging server", `try { await MCP.faulty.hang({}); return "answered" } catch (e) { return "caught" }`, `"caught"`},
		{"notification flood", `return (await MCP.faulty.flood({})).content[0].text`, `"flooded"`},
		{"killed mid-call", `try { await MCP.faulty.die({}); return "answered" } catch (e) { return "caught" }`, `"caught"`},
	}
	for _, tc := range cases {
		r := run.Exec(ctx, "c", execArgs(tc.code))
		if r.Status != host.StatusCompleted || string(r.Value) != tc.want {
			t.Errorf("%s: %s", tc.name, describe(r))
		}
	}
	// The killed server comes back (plugins/mcp restarts it with backoff).
	var r host.Result
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		r = prepare(t, rt, testScope).Exec(ctx, "c", execArgs(`return (await MCP.faulty.ok({})).content[0].text`))
		if string(r.Value) == `"fine"` {
			break
		}
	}
	if string(r.Value) != `"fine"` {
		t.Errorf("killed server did not come back: %s", describe(r))
	}
	if r := run.Exec(ctx, "c", execArgs(`return 1`)); string(r.Value) != "1" || strings.Contains(r.Error, "panic") {
		t.Fatalf("host unhealthy: %s", describe(r))
	}
}
