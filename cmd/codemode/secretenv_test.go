package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// The operator's secrets in codemode's environment, as the docs tell them to
// pass them, and one outside the allowlist.
var secretEnv = map[string]string{
	tokenEnv:                 "token-for-codemode-only-0123456789",
	storeKeyEnv:              "store-key-for-codemode-only-0123456789abcdef",
	"CODEMODE_INPUT_UNUSED":  "input-for-codemode-only",
	"OPERATOR_CLOUD_SECRET":  "cloud-secret-outside-the-allowlist",
	"CODEMODE_ENV_TEST_GIVE": "given-by-config",
}

// envCell asks two server-everything processes for their environments: ev
// (the default) and all (inheritEnv), and returns both.
const envCell = `const env = async s => JSON.parse((await s.getEnv({})).content[0].text);
return {ev: await env(MCP.ev), all: await env(MCP.all)};`

// envConfig runs server-everything twice: with its config's env, and with
// inheritEnv.
func envConfig(t *testing.T) string {
	node, modules := peers(t)
	script := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	return writeFile(t, "env.json5", fmt.Sprintf(`{plugins: {demo: true}, mcpServers: {
		ev: {command: %[1]q, args: [%[2]q, "stdio"], env: {GIVEN: "${CODEMODE_ENV_TEST_GIVE}"}},
		all: {command: %[1]q, args: [%[2]q, "stdio"], inheritEnv: true},
	}}`, node, script))
}

// checkServerEnv: ev saw the allowlist and its env and nothing else; all saw
// the operator's other secret; neither saw a CODEMODE_ variable or any of
// codemode's secrets under another name.
func checkServerEnv(t *testing.T, value json.RawMessage) {
	t.Helper()
	var got struct{ Ev, All map[string]string }
	if err := json.Unmarshal(value, &got); err != nil || got.Ev == nil || got.All == nil {
		t.Fatalf("value %s: %v", value, err)
	}
	allow := []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "GIVEN"}
	for server, env := range map[string]map[string]string{"ev": got.Ev, "all": got.All} {
		for k, v := range env {
			if strings.HasPrefix(k, "CODEMODE_") {
				t.Errorf("%s sees %s=%s", server, k, v)
			}
			for name, secret := range secretEnv {
				if strings.Contains(v, secret) && !(name == "CODEMODE_ENV_TEST_GIVE" && k == "GIVEN") &&
					!(name == "OPERATOR_CLOUD_SECRET" && server == "all") {
					t.Errorf("%s sees the value of $%s in %s", server, name, k)
				}
			}
			if server == "ev" && !slices.Contains(allow, k) {
				t.Errorf("ev sees %s, outside the allowlist and its env", k)
			}
		}
	}
	if got.Ev["GIVEN"] != secretEnv["CODEMODE_ENV_TEST_GIVE"] || got.Ev["PATH"] == "" {
		t.Errorf("ev misses its env or PATH: %v", got.Ev)
	}
	if got.All["OPERATOR_CLOUD_SECRET"] == "" {
		t.Errorf("all (inheritEnv) misses the environment: %v", got.All)
	}
}

func setSecretEnv(t *testing.T) {
	for k, v := range secretEnv {
		t.Setenv(k, v)
	}
}

// TestExecServerEnv: the built binary's exec, with the operator's secrets
// in its environment: the stdio servers it starts do not get them.
func TestExecServerEnv(t *testing.T) {
	cfg := envConfig(t)
	bin := buildCommand(t)
	setSecretEnv(t)
	out, err := exec.Command(bin, "exec", "--config", cfg, "-e", envCell).Output()
	if err != nil {
		t.Fatalf("exec: %v\n%s", err, out)
	}
	rs := results(t, string(out))
	if len(rs) != 1 || rs[0].Status != host.StatusCompleted {
		t.Fatalf("results %s", out)
	}
	checkServerEnv(t, rs[0].Value)
}

// TestServeServerEnv: the same through the built binary's serve, over stdio.
func TestServeServerEnv(t *testing.T) {
	cfg := envConfig(t)
	bin := buildCommand(t)
	setSecretEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := connectServe(t, ctx, sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil), bin, "--config", cfg)
	call := func(code string) host.Result {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": code}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r host.Result
		if err := json.Unmarshal(b, &r); err != nil || r.Status != host.StatusCompleted {
			t.Fatalf("exec: %v %s", err, b)
		}
		return r
	}
	// serve waits a second for the servers, then goes on without them; the
	// demo plugin keeps exec offered meanwhile.
	for string(call(`return "ev" in MCP && "all" in MCP`).Value) != "true" {
		if ctx.Err() != nil {
			t.Fatal("the servers never came up")
		}
		time.Sleep(200 * time.Millisecond)
	}
	checkServerEnv(t, call(envCell).Value)
}

// TestSecretsLeaveTheEnvironment: a command takes $CODEMODE_TOKEN and
// $CODEMODE_STORE_KEY out of the process's environment when it starts, and
// still uses them.
func TestSecretsLeaveTheEnvironment(t *testing.T) {
	setSecretEnv(t)
	if _, stderr, code := cli(t, "", "exec", "-e", "return 1"); code != exitOK {
		t.Fatalf("exec: %d %s", code, stderr)
	}
	for _, name := range []string{tokenEnv, storeKeyEnv} {
		if v, ok := os.LookupEnv(name); ok {
			t.Errorf("$%s is still in the environment: %q", name, v)
		}
	}
	if envToken.value != secretEnv[tokenEnv] || envStoreKey.value != secretEnv[storeKeyEnv] {
		t.Errorf("taken: %+v %+v", envToken, envStoreKey)
	}
	if token, source, err := serveToken(""); err != nil || token != secretEnv[tokenEnv] || source != "$"+tokenEnv {
		t.Errorf("serveToken = %q %q %v", token, source, err)
	}
}
