package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
)

// everything starts the real server-everything over streamable HTTP or SSE
// on a free loopback port and returns its base URL.
func everything(t *testing.T, node, script, transport string) string {
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(node, script, transport)
	cmd.Env = append(os.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
			return "http://127.0.0.1:" + port
		}
		if i == 600 {
			t.Fatalf("server-everything %s never listened on %s", transport, port)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Each documented client config file, pasted as it is, connects codemode to
// real servers: server-everything over stdio, streamable HTTP and SSE.
func TestClientConfigFilesConnect(t *testing.T) {
	node, modules := peers(t)
	pkg := func(name string) string {
		return filepath.Join(modules, "@modelcontextprotocol", name, "dist", "index.js")
	}
	script := pkg("server-everything")
	httpURL := everything(t, node, script, "streamableHttp")
	sseURL := everything(t, node, script, "sse")
	t.Setenv("API_TOKEN", "tok")
	t.Setenv("API_KEY", "key")
	t.Setenv("CODEMODE_INPUT_API_TOKEN", "tok")
	t.Setenv("EVERYTHING_URL", httpURL)
	local, _ := json.Marshal([]string{script, "stdio"})
	memory, _ := json.Marshal([]string{pkg("server-memory")})
	rewrite := strings.NewReplacer(
		`"npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"]`, `"`+node+`", "args": `+string(local),
		`"npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"]`, `"`+node+`", "args": `+string(memory),
		"http://localhost:3001/sse", sseURL+"/sse",
		"http://localhost:3001", httpURL)
	for file, servers := range map[string][]string{
		"claude-desktop.json":      {"everything", "memory"},
		"claude-code.mcp.json":     {"everything", "remote"},
		"vscode.mcp.json":          {"everything", "remote"},
		"cursor.mcp.json":          {"everything", "remote"},
		"windsurf.mcp_config.json": {"everything", "remote"},
		"cline.mcp_settings.json":  {"everything", "legacy"},
	} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../examples/clients", file))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, file)
			if file == "vscode.mcp.json" {
				os.Mkdir(filepath.Join(dir, ".vscode"), 0o755)
				os.WriteFile(filepath.Join(dir, ".env"), []byte("LEVEL=debug\n"), 0o644)
				path = filepath.Join(dir, ".vscode", "mcp.json")
			}
			os.WriteFile(path, []byte(rewrite.Replace(string(data))), 0o644)
			stdout, stderr, code := cli(t, "", "catalog", "--config", path, "--json")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var listing catalogListing
			if err := json.Unmarshal([]byte(stdout), &listing); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, e := range listing.Catalog {
				ids = append(ids, e.ID)
			}
			if !listing.CodeMode {
				t.Error("code mode is off")
			}
			for _, s := range servers {
				want := "mcp:" + s + ":echo"
				if s == "memory" {
					want = "mcp:memory:read_graph"
				}
				if !slices.Contains(ids, want) {
					t.Errorf("no %s among %d entries\n%s", want, len(ids), stderr)
				}
			}
			if file == "windsurf.mcp_config.json" && slices.Contains(ids, "mcp:everything:trigger-long-running-operation") {
				t.Error("a disabledTools tool is catalogued")
			}
		})
	}
}

// init turns each client's file into a codemode one with the same servers,
// and prints the entry that replaces them; it never overwrites a file
// unless told to.
func TestInit(t *testing.T) {
	t.Setenv("API_TOKEN", "tok")
	t.Setenv("API_KEY", "key")
	t.Setenv("CODEMODE_INPUT_API_TOKEN", "tok")
	entries, err := os.ReadDir("../../examples/clients")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			data, _ := os.ReadFile(filepath.Join("../../examples/clients", e.Name()))
			dir := filepath.Join(t.TempDir(), ".vscode")
			os.Mkdir(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "..", ".env"), []byte("LEVEL=debug\n"), 0o644)
			src := filepath.Join(dir, e.Name())
			os.WriteFile(src, data, 0o644)
			stdout, stderr, code := cli(t, "", "init", src)
			if code != 0 || !strings.Contains(stdout, "replace them with this one entry") {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			var entry map[string]map[string]struct {
				Command string
				Args    []string
				Env     map[string]string
			}
			if err := json.NewDecoder(strings.NewReader(stdout[strings.Index(stdout, "{"):])).Decode(&entry); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			for _, servers := range entry {
				if args := servers["codemode"].Args; len(args) != 3 || args[0] != "serve" || args[2] != filepath.Join(dir, "codemode.json5") {
					t.Errorf("entry %+v", servers)
				}
				// VS Code's inputs are answered in its own entries only:
				// the one entry passes them on.
				env := servers["codemode"].Env
				if e.Name() == "vscode.mcp.json" && (env["CODEMODE_INPUT_API_TOKEN"] != "${input:api-token}" || !strings.Contains(stdout, "Keep the inputs list")) {
					t.Errorf("VS Code entry without its input: %+v\n%s", servers, stdout)
				}
				if e.Name() != "vscode.mcp.json" && env != nil {
					t.Errorf("env in an entry with no inputs: %v", env)
				}
			}
			was, err := config.Load(src)
			if err != nil {
				t.Fatal(err)
			}
			now, err := config.Load(filepath.Join(dir, "codemode.json5"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(now.MCPServers, was.MCPServers) || string(now.CodeMode) != "true" {
				t.Errorf("servers\n got %+v\nwant %+v", now.MCPServers, was.MCPServers)
			}
			if _, _, code := cli(t, "", "init", src); code != exitUsage {
				t.Errorf("a second init overwrote the file: exit %d", code)
			}
		})
	}
}
