package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// secretCells are a model's attempts to read the operator's secrets through
// a downstream server that reports its environment (server-everything's
// get-env, as MCP.ev.getEnv and as MCP.all.getEnv with inheritEnv), each
// returning what it found: every one must find nothing.
var secretCells = map[string]string{
	"search the environment for the token and the key": `const seen = [];
		for (const s of [MCP.ev, MCP.all]) {
		  const text = (await s.getEnv({})).content[0].text;
		  for (const [k, v] of Object.entries(JSON.parse(text)))
		    if (k.startsWith("CODEMODE_") || /token-for-codemode|store-key-for-codemode/.test(v)) seen.push(k);
		}
		return seen;`,
	"names outside the allowlist and the config's env": `const allow = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "GIVEN"];
		const env = JSON.parse((await MCP.ev.getEnv({})).content[0].text);
		return Object.keys(env).filter(k => !allow.includes(k));`,
	"the raw results, in case the text hides one": `const ev = JSON.stringify(await MCP.ev.getEnv({}));
		const all = JSON.stringify(await MCP.all.getEnv({}));
		const found = ["token-for-codemode", "store-key-for-codemode", "input-for-codemode"].filter(s => ev.includes(s) || all.includes(s));
		if (ev.includes("cloud-secret")) found.push("cloud-secret in ev");
		return found;`,
}

// TestSecretsStayOutOfDownstream runs the built `codemode serve --http`
// with the operator's secrets in its environment, the way the docs tell
// them to pass the bearer token and the run store's key, and two
// server-everything processes (one with inheritEnv): no cell finds a secret
// through them, and the token that was taken out of the environment still
// guards the server.
func TestSecretsStayOutOfDownstream(t *testing.T) {
	node, modules := modelPeers(t)
	const token = "token-for-codemode-only-0123456789"
	t.Setenv("CODEMODE_TOKEN", token)
	t.Setenv("CODEMODE_STORE_KEY", "store-key-for-codemode-only-0123456789abcdef")
	t.Setenv("CODEMODE_INPUT_UNUSED", "input-for-codemode-only")
	t.Setenv("OPERATOR_CLOUD_SECRET", "cloud-secret-outside-the-allowlist")
	script := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	config := fmt.Sprintf(`{tools: {codeMode: {enabled: true, timeoutMs: 30000}}, plugins: {demo: true}, mcpServers: {
		ev: {command: %[1]q, args: [%[2]q, "stdio"], env: {GIVEN: "given"}},
		all: {command: %[1]q, args: [%[2]q, "stdio"], inheritEnv: true},
	}}`, node, script)
	dir := t.TempDir()
	srv := launchServe(t, buildBinary(t, dir), dir, config, true)

	resp, err := http.Post(srv.url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d, want 401", resp.StatusCode)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "secrets", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: srv.url, MaxRetries: 1,
			HTTPClient: &http.Client{Transport: bearerTransport{token: token, base: http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatalf("connect with the token: %v\n%s", err, srv.log)
	}
	defer cs.Close()
	// The servers start in the background; the demo plugin keeps exec
	// offered until they are up.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		r, err := modelCall(ctx, cs, "exec", map[string]any{"code": "return Object.keys(MCP)"})
		if err != nil {
			t.Fatalf("probe: %v\n%s", err, srv.log)
		}
		var have []string
		json.Unmarshal(r.Value, &have)
		if slices.Contains(have, "ev") && slices.Contains(have, "all") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("servers not up after 2 minutes: %s\n%s", r, srv.log)
		}
	}
	for name, code := range secretCells {
		r, err := modelCall(ctx, cs, "exec", map[string]any{"code": code})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Status != "completed" || string(compactJSON(r.Value)) != "[]" {
			t.Errorf("%s: %s", name, r)
		}
	}
	// inheritEnv passes the rest of the environment: the cells above did
	// reach a server that sees it.
	r, err := modelCall(ctx, cs, "exec", map[string]any{"code": `return JSON.parse((await MCP.all.getEnv({})).content[0].text).OPERATOR_CLOUD_SECRET`})
	if err != nil || string(r.Value) != `"cloud-secret-outside-the-allowlist"` {
		t.Errorf("inheritEnv: %v %s", err, r)
	}
}
