package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/plugins/mcp"
)

const full = `// codemode configuration
{
  $schema: "ignored",
  tools: {
    codeMode: { enabled: true, timeoutMs: 5000, },
    allow: ['shipping_list', "mcp:docs:search_docs"],
    deny: [],
    directOnly: ["chart_image"],
  },
  plugins: { demo: true },
  mcpServers: {
    zeta: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer x" } },
    alpha: { command: "npx", args: ["-y", "server"], env: { TOKEN: "t" }, cwd: "/tmp", directOnly: ["shot"], type: "stdio" },
  },
}
`

func TestParseFull(t *testing.T) {
	f, err := Parse("cfg.json5", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.CodeMode) != `{"enabled":true,"timeoutMs":5000}` {
		t.Errorf("CodeMode = %s", f.CodeMode)
	}
	if !reflect.DeepEqual(f.Allow, []string{"shipping_list", "mcp:docs:search_docs"}) || f.Deny == nil || len(f.Deny) != 0 {
		t.Errorf("Allow, Deny = %q, %#v", f.Allow, f.Deny)
	}
	if !reflect.DeepEqual(f.DirectOnly, []string{"chart_image"}) || !f.Plugins["demo"] {
		t.Errorf("DirectOnly, Plugins = %q, %v", f.DirectOnly, f.Plugins)
	}
	want := []MCPServer{
		{Name: "alpha", Command: "npx", Args: []string{"-y", "server"}, Env: map[string]string{"TOKEN": "t"}, Cwd: "/tmp", DirectOnly: []string{"shot"}},
		{Name: "zeta", URL: "http://127.0.0.1:9/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
	}
	if !reflect.DeepEqual(f.MCPServers, want) {
		t.Errorf("MCPServers = %+v\nwant %+v", f.MCPServers, want)
	}
	if len(f.Warnings) != 0 {
		t.Errorf("Warnings = %q", f.Warnings)
	}
	if got := f.Pos("mcpServers.alpha.args[1]"); got != "cfg.json5:13:43" {
		t.Errorf("Pos = %s", got)
	}
	if got := f.Pos("tools.nothing.here"); got != "cfg.json5:4:10" {
		t.Errorf("Pos of a missing field = %s, want its closest parent", got)
	}
}

func TestParseDefaults(t *testing.T) {
	f, err := Parse("c", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.CodeMode != nil || f.Allow != nil || f.Deny != nil || len(f.Plugins) != 0 || f.MCPServers != nil {
		t.Errorf("empty file = %+v, want all absent", f)
	}
	f, err = Parse("c", []byte(`{plugins: {demo: {enabled: false}, tracker: true}, tools: {codeMode: true}}`))
	if err != nil {
		t.Fatal(err)
	}
	if on, ok := f.Plugins["demo"]; !ok || on || !f.Plugins["tracker"] || string(f.CodeMode) != "true" {
		t.Errorf("Plugins = %v, CodeMode = %s", f.Plugins, f.CodeMode)
	}
}

func TestParseWarnings(t *testing.T) {
	in := "{\n  tool: {},\n  tools: {\n    codeMode: { enabled: true, timeoutMs: 1, colour: 'red' },\n  },\n  plugins: { nope: true },\n}"
	f, err := Parse("w.json5", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"w.json5:2:3: tool: unknown key ignored",
		"w.json5:4:32: tools.codeMode.timeoutMs: 1 clamped to 100",
		"w.json5:4:46: tools.codeMode.colour: unknown key ignored",
		"w.json5:6:14: plugins.nope: unknown plugin ignored (known: demo, tracker)",
	}
	got := f.Warnings
	sortedGot := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(sortedGot, w) {
			t.Errorf("warnings %q\nlack %q", got, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d warnings, want %d: %q", len(got), len(want), got)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"syntax", "{\n  tools: {,}\n}", "e.json5:2:11: unexpected ',', want a key or '}'"},
		{"not an object", "[1]", "e.json5:1:1: must be an object, not an array"},
		{"allow type", "{tools: {allow: 'x'}}", "e.json5:1:17: tools.allow: must be an array of strings, not a string"},
		{"allow element", "{tools: {allow: ['x',\n 2]}}", "e.json5:2:2: tools.allow[1]: must be a string, not a number"},
		{"code mode type", "{tools: {codeMode: {\n  enabled: 'yes'}}}", "e.json5:2:12: tools.codeMode.enabled:"},
		{"code mode runtime", "{tools: {codeMode: {enabled: true, runtime: 'node'}}}", "e.json5:1:45: tools.codeMode.runtime:"},
		{"code mode shape", "{tools: {codeMode: 3}}", "e.json5:1:20: tools.codeMode:"},
		{"plugin switch", "{plugins: {demo: 'on'}}", "e.json5:1:18: plugins.demo: must be a boolean or an object with enabled, not a string"},
		{"plugin enabled", "{plugins: {demo: {enabled: 1}}}", "e.json5:1:28: plugins.demo.enabled: must be a boolean, not a number"},
		{"server neither", "{mcpServers: {a: {}}}", "e.json5:1:18: mcpServers.a: needs a command (stdio) or a url (streamable HTTP or SSE)"},
		{"server both", "{mcpServers: {a: {command: 'x', url: 'y'}}}", "mcpServers.a: has both command and url"},
		{"server name", "{mcpServers: {'a b': {command: 'x'}}}", `e.json5:1:15: mcpServers["a b"]: server names use`},
		{"server env", "{mcpServers: {a: {command: 'x', env: {K: 1}}}}", "e.json5:1:42: mcpServers.a.env.K: must be a string, not a number"},
		{"server type", "{mcpServers: {a: {command: 'x', type: 'ws'}}}", `e.json5:1:39: mcpServers.a.type: must be "stdio", "http", "streamable-http" or "sse", not "ws"`},
		{"sse without url", "{mcpServers: {a: {command: 'x', type: 'sse'}}}", `e.json5:1:39: mcpServers.a.type: "sse" needs a url`},
		{"unset variable", "{mcpServers: {a: {url: 'http://h/${CODEMODE_TEST_UNSET}'}}}", `e.json5:1:24: mcpServers.a.url: ${CODEMODE_TEST_UNSET}: the environment variable CODEMODE_TEST_UNSET is not set`},
		{"undeclared input", "{servers: {a: {command: 'x', env: {K: '${input:key}'}}}}", `e.json5:1:39: servers.a.env.K: ${input:key}: no input with id "key" is declared under inputs`},
		{"unanswered input", "{inputs: [{id: 'api-key', description: 'Your key'}], servers: {a: {command: 'x', args: ['${input:api-key}']}}}", `servers.a.args[0]: ${input:api-key}: set CODEMODE_INPUT_API_KEY to answer it (VS Code would ask: "Your key")`},
		{"one name twice", "{servers: {a: {command: 'x'}}, mcpServers: {a: {command: 'y'}}}", `mcpServers.a: a server of this name is already configured`},
		{"server type mismatch", "{mcpServers: {a: {url: 'x', type: 'stdio'}}}", `mcpServers.a.type: "stdio" needs a command`},
		{"headers without url", "{mcpServers: {a: {command: 'x', headers: {}}}}", "headers and oauth apply only to a url"},
		{"approval kind", "{tools: {approval: 'all'}}", "tools.approval: must be an array of tool names and ids, or an object with tools, destructive and withoutClient; not a string"},
		{"approval default", "{tools: {approval: {withoutClient: 'ask'}}}", `tools.approval.withoutClient: must be "deny" or "allow", not "ask"`},
		{"approval destructive", "{tools: {approval: {destructive: 'yes'}}}", "tools.approval.destructive: must be a boolean, not a string"},
		{"oauth without url", "{mcpServers: {a: {command: 'x', oauth: false}}}", "headers and oauth apply only to a url"},
		{"oauth on sse", "{mcpServers: {a: {url: 'x', type: 'sse', oauth: {}}}}", `oauth applies only to a streamable HTTP url, not to "sse"`},
		{"oauth grant", "{mcpServers: {a: {url: 'x', oauth: {grant: 'password'}}}}", `mcpServers.a.oauth.grant: must be "authorization_code" or "client_credentials", not "password"`},
		{"oauth client credentials", "{mcpServers: {a: {url: 'x', oauth: {grant: 'client_credentials', clientId: 'c'}}}}", `"client_credentials" needs clientId and clientSecret`},
		{"oauth secret alone", "{mcpServers: {a: {url: 'x', oauth: {clientSecret: 's'}}}}", "mcpServers.a.oauth: clientSecret needs clientId"},
		{"oauth port", "{mcpServers: {a: {url: 'x', oauth: {redirectPort: 70000}}}}", "mcpServers.a.oauth.redirectPort: must be a port number from 1 to 65535"},
		{"oauth authorize", "{mcpServers: {a: {url: 'x', oauth: {authorize: 'popup'}}}}", `must be "browser", "print" or "follow", not "popup"`},
		{"oauth secret variable", "{mcpServers: {a: {url: 'x', oauth: {clientId: 'c', clientSecret: '${CODEMODE_TEST_UNSET_SECRET}'}}}}", "mcpServers.a.oauth.clientSecret: "},
		{"args without command", "{mcpServers: {a: {url: 'x', args: []}}}", "args, env, envFile, cwd and inheritEnv apply only to a command"},
		{"inheritEnv type", "{mcpServers: {a: {command: 'x', inheritEnv: 'yes'}}}", "e.json5:1:45: mcpServers.a.inheritEnv: must be a boolean, not a string"},
		{"inheritEnv without command", "{mcpServers: {a: {url: 'x', inheritEnv: true}}}", "mcpServers.a: args, env, envFile, cwd and inheritEnv apply only to a command"},
		{"dotted server name", "{mcpServers: {'a.b': {url: 'x', cwd: '/'}}}", `mcpServers["a.b"]: args, env, envFile, cwd and inheritEnv`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("e.json5", []byte(c.in))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Parse(%q) error = %v, want a *Error", c.in, err)
			}
			if !strings.HasPrefix(err.Error(), c.want) && !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse(%q) = %q, want %q", c.in, err, c.want)
			}
		})
	}
}

func TestParseOAuth(t *testing.T) {
	t.Setenv("CODEMODE_TEST_SECRET", "s3")
	f, err := Parse("o.json", []byte(`{"mcpServers": {
		"a": {"url": "http://x/mcp", "oauth": {"clientId": "c", "clientSecret": "${CODEMODE_TEST_SECRET}", "grant": "client_credentials",
			"scopes": ["read"], "redirectPort": 33418, "authorize": "follow", "clientMetadataUrl": "https://x/c.json"}},
		"b": {"url": "http://x/mcp", "oauth": false},
		"c": {"url": "http://x/mcp"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []*OAuth{
		{Client: mcp.OAuth{ClientID: "c", ClientSecret: "s3", ClientMetadataURL: "https://x/c.json", ClientCredentials: true,
			Scopes: []string{"read"}, RedirectPort: 33418}, Authorize: "follow"},
		{Off: true},
		nil,
	}
	for i, s := range f.MCPServers {
		if !reflect.DeepEqual(s.OAuth, want[i]) {
			t.Errorf("%s: OAuth = %+v, want %+v", s.Name, s.OAuth, want[i])
		}
	}
}

func TestParseApproval(t *testing.T) {
	for in, want := range map[string]Approval{
		`{tools: {approval: ["shipping_mark_paid", "mcp:fs:write_file"]}}`:               {Tools: []string{"shipping_mark_paid", "mcp:fs:write_file"}},
		`{tools: {approval: {tools: ["a"], destructive: true, withoutClient: "allow"}}}`: {Tools: []string{"a"}, Destructive: true, AllowWithoutClient: true},
		`{tools: {approval: {destructive: true, withoutClient: "deny"}}}`:                {Destructive: true},
	} {
		f, err := Parse("a.json5", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Approval, want) {
			t.Errorf("%s: %+v, want %+v", in, f.Approval, want)
		}
	}
}

// tools.toolSearch is kept as written, and a file with servers and Tool
// Search no longer turns code mode on.
func TestParseToolSearch(t *testing.T) {
	f, err := Parse("a.json5", []byte(`{tools: {toolSearch: {enabled: true, mode: "code"}}, mcpServers: {a: {command: "x"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.ToolSearch) != `{"enabled":true,"mode":"code"}` || f.CodeMode != nil {
		t.Errorf("toolSearch %s, codeMode %s", f.ToolSearch, f.CodeMode)
	}
	f, err = Parse("a.json5", []byte(`{mcpServers: {a: {command: "x"}}}`))
	if err != nil || string(f.CodeMode) != "true" || f.ToolSearch != nil {
		t.Errorf("servers alone: %v codeMode %s toolSearch %s", err, f.CodeMode, f.ToolSearch)
	}
}

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json5")
	if err := os.WriteFile(path, []byte(full), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path + ".missing"); err == nil || !strings.Contains(err.Error(), "read config") {
		t.Errorf("Load(missing) = %v", err)
	}
}

func TestSplitField(t *testing.T) {
	got := splitField(`a.b[2]["x.y"].c`)
	want := []string{"a", "b", "[2]", `["x.y"]`, "c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("splitField = %q, want %q", got, want)
	}
}

// Windsurf's disabledTools join tools.deny wherever that is in the file.
// inheritEnv is per server, off by default.
func TestParseInheritEnv(t *testing.T) {
	f, err := Parse("i.json5", []byte(`{mcpServers: {a: {command: "x", inheritEnv: true}, b: {command: "y"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.MCPServers) != 2 || !f.MCPServers[0].InheritEnv || f.MCPServers[1].InheritEnv {
		t.Errorf("MCPServers = %+v", f.MCPServers)
	}
}

func TestDisabledToolsJoinDeny(t *testing.T) {
	f, err := Parse("w.json", []byte(`{mcpServers: {w: {command: "x", disabledTools: ["a"]}}, tools: {deny: ["b"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Deny, []string{"b", "mcp:w:a"}) {
		t.Errorf("Deny = %q", f.Deny)
	}
}

func TestParseTrustAndRedact(t *testing.T) {
	f, err := Parse("cfg.json5", []byte(`{redact: true, mcpServers: {
  a: {command: "x", trust: "strict", redact: false, secretEnv: ["EXTRA"]},
  b: {url: "http://127.0.0.1:9/mcp"},
}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.MCPServers[0], f.MCPServers[1]
	if !f.Redact || a.Trust != "strict" || a.Redact == nil || *a.Redact || !reflect.DeepEqual(a.SecretEnv, []string{"EXTRA"}) ||
		b.Trust != "" || b.Redact != nil {
		t.Fatalf("parsed: %v %+v %+v", f.Redact, a, b)
	}
	for src, want := range map[string]string{
		`{mcpServers: {a: {command: "x", trust: 1}}}`:       "mcpServers.a.trust: must be a string",
		`{mcpServers: {a: {command: "x", redact: "yes"}}}`:  "mcpServers.a.redact: must be a boolean",
		`{mcpServers: {a: {command: "x", secretEnv: "X"}}}`: "mcpServers.a.secretEnv: must be an array",
	} {
		if _, err := Parse("cfg.json5", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// An unknown key that is a near miss of a known one names it: a wrong case,
// a missing unit suffix, a typo; a key near nothing gets no guess.
func TestUnknownKeySuggestions(t *testing.T) {
	in := `{mcpservers: {}, tool: {}, tools: {alow: [], toolSerch: {}, colour: "red"}}`
	f, err := Parse("s.json5", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(f.Warnings, "\n")
	for _, want := range []string{
		`mcpservers: unknown key ignored; did you mean "mcpServers"?`,
		`tool: unknown key ignored; did you mean "tools"?`,
		`tools.alow: unknown key ignored; did you mean "allow"?`,
		`tools.toolSerch: unknown key ignored; did you mean "toolSearch"?`,
		"tools.colour: unknown key ignored\n",
	} {
		if !strings.Contains(got+"\n", want) {
			t.Errorf("warnings\n%s\nlack %q", got, want)
		}
	}
}
