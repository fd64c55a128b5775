package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// examples is where the documented client config files are.
const examples = "../../../../examples/clients"

var npxEverything = []string{"-y", "@modelcontextprotocol/server-everything"}

// Each MCP client's config file, as its documentation shows it, loads with
// its variables expanded and code mode on.
func TestClientConfigShapes(t *testing.T) {
	t.Setenv("API_TOKEN", "tok")
	t.Setenv("API_KEY", "key")
	t.Setenv("CODEMODE_INPUT_API_TOKEN", "vs-tok")
	t.Setenv("LOG_LEVEL", "")
	os.Unsetenv("EVERYTHING_URL")
	// VS Code's file lives in .vscode, and ${workspaceFolder} is above it.
	work := t.TempDir()
	os.Mkdir(filepath.Join(work, ".vscode"), 0o755)
	data, err := os.ReadFile(filepath.Join(examples, "vscode.mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	vscode := filepath.Join(work, ".vscode", "mcp.json")
	os.WriteFile(vscode, data, 0o644)
	os.WriteFile(filepath.Join(work, ".env"), []byte("# secrets\nexport GREETING=\"hello there\"\nLEVEL=debug\n"), 0o644)

	remote := func(url string, headers map[string]string) MCPServer {
		return MCPServer{Name: "remote", URL: url, Headers: headers}
	}
	for _, c := range []struct {
		file string
		want []MCPServer
		deny []string
	}{
		{filepath.Join(examples, "claude-desktop.json"), []MCPServer{
			{Name: "everything", Command: "npx", Args: npxEverything},
			{Name: "memory", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}, Env: map[string]string{"MEMORY_FILE_PATH": "/tmp/codemode-example-memory.jsonl"}},
		}, nil},
		{filepath.Join(examples, "claude-code.mcp.json"), []MCPServer{
			{Name: "everything", Command: "npx", Args: npxEverything, Env: map[string]string{"LOG_LEVEL": "info"}},
			remote("http://localhost:3001/mcp", map[string]string{"Authorization": "Bearer tok"}),
		}, nil},
		{vscode, []MCPServer{
			{Name: "everything", Command: "npx", Args: npxEverything, Env: map[string]string{"GREETING": "hello there", "LEVEL": "debug"}},
			remote("http://localhost:3001/mcp", map[string]string{"Authorization": "Bearer vs-tok"}),
		}, nil},
		{filepath.Join(examples, "cursor.mcp.json"), []MCPServer{
			{Name: "everything", Command: "npx", Args: npxEverything, Env: map[string]string{"API_KEY": "key"}},
			remote("http://localhost:3001/mcp", map[string]string{"Authorization": "Bearer tok"}),
		}, nil},
		{filepath.Join(examples, "windsurf.mcp_config.json"), []MCPServer{
			{Name: "everything", Command: "npx", Args: npxEverything},
			remote("http://localhost:3001/mcp", nil),
		}, []string{"mcp:everything:trigger-long-running-operation"}},
		{filepath.Join(examples, "cline.mcp_settings.json"), []MCPServer{
			{Name: "everything", Command: "npx", Args: npxEverything},
			{Name: "legacy", URL: "http://localhost:3001/sse", SSE: true},
		}, nil},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			f, err := Load(c.file)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.MCPServers, c.want) {
				t.Errorf("servers\n got %+v\nwant %+v", f.MCPServers, c.want)
			}
			if string(f.CodeMode) != "true" || len(f.Warnings) != 0 || !reflect.DeepEqual(f.Deny, c.deny) {
				t.Errorf("codeMode %s, warnings %q, deny %q", f.CodeMode, f.Warnings, f.Deny)
			}
		})
	}
}

// ${VAR:-default} takes the default for an unset or empty variable; the
// other kinds are refused when unset, naming the variable and its place.
func TestVariables(t *testing.T) {
	t.Setenv("SET", "v")
	t.Setenv("EMPTY", "")
	x := &expander{path: "/w/.cursor/mcp.json", inputs: map[string]string{}}
	home, _ := os.UserHomeDir()
	for in, want := range map[string]string{
		"${SET}":                          "v",
		"${EMPTY}":                        "",
		"${EMPTY:-d}":                     "d",
		"${UNSET_CM_VAR:-d}":              "d",
		"a${SET}b${env:SET}c":             "avbvc",
		"${workspaceFolder}":              "/w",
		"${workspaceFolderBasename}${/}x": "w/x",
		"${userHome}":                     home,
		"no $SET expansion":               "no $SET expansion",
	} {
		if got, err := x.expand(in); err != nil || got != want {
			t.Errorf("expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"${UNSET_CM_VAR}", "${env:UNSET_CM_VAR}", "${input:nope}", "${cmd:ls}", "${a b}"} {
		if _, err := x.expand(in); err == nil {
			t.Errorf("expand(%q) succeeded", in)
		}
	}
}
