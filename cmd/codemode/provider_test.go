package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// providerKey is the operator's provider key, in a variable that is not
// codemode's own (keyEnv names it).
const providerKey = "sk-ant-provider-key-for-codemode-only-9876543210"
const providerKeyEnv = "TEST_PROVIDER_API_KEY"

// fakeAnthropic is a Messages API on loopback: answer gives each request's
// text from its messages; every request is kept.
type fakeAnthropic struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	keys   []string
}

func newFakeAnthropic(t *testing.T, answer func(msgs []string) (status int, text string)) *fakeAnthropic {
	f := &fakeAnthropic{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		var msgs []string
		for _, m := range body["messages"].([]any) {
			msgs = append(msgs, m.(map[string]any)["content"].(string))
		}
		f.mu.Lock()
		f.bodies, f.keys = append(f.bodies, body), append(f.keys, r.Header.Get("x-api-key"))
		f.mu.Unlock()
		status, text := answer(msgs)
		w.WriteHeader(status)
		if status != 200 {
			fmt.Fprintf(w, `{"type":"error","error":{"type":"authentication_error","message":%q}}`, text)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}},
			"usage": map[string]any{"input_tokens": 150, "output_tokens": 50}})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAnthropic) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// seen is a copy of the requests' bodies and keys.
func (f *fakeAnthropic) seen() ([]map[string]any, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.bodies), slices.Clone(f.keys)
}

// providerConfig is a config whose sub-agents run through the fake, with
// the key in $TEST_PROVIDER_API_KEY; extra goes into the provider object.
func providerConfig(t *testing.T, f *fakeAnthropic, extra string) string {
	t.Setenv(providerKeyEnv, providerKey)
	return writeFile(t, "provider.json5", fmt.Sprintf(`{ tools: { codeMode: true, swarm: { enabled: true, provider: {
		kind: "anthropic", url: %q, model: "claude-test", models: { rater: "claude-small" }, keyEnv: %q, maxTokens: 100, %s } } },
		plugins: { tracker: true } }`, f.srv.URL+"/v1", providerKeyEnv, extra))
}

// TestExecSwarmThroughProvider: codemode exec --config runs a cell's
// children through the provider with no sampling client: one as text, one
// with a schema whose first answer does not match, asked again with the
// correction and accepted. The key reached the provider only.
func TestExecSwarmThroughProvider(t *testing.T) {
	f := newFakeAnthropic(t, func(msgs []string) (int, string) {
		switch {
		case msgs[0] == "rate SHP-101" && len(msgs) == 1:
			return 200, "I would say four."
		case msgs[0] == "rate SHP-101":
			return 200, "```json\n{\"score\": 4}\n```"
		}
		return 200, "summary of " + msgs[0]
	})
	cfg := providerConfig(t, f, "")
	stdout, stderr, code := cli(t, "", "exec", "--trace", "--config", cfg, "-e", `return await Promise.all([
		agents.run("the release notes", { label: "writer" }),
		agents.run("rate SHP-101", { label: "rater", schema: { type: "object", properties: { score: { type: "integer" } }, required: ["score"] } }),
	])`)
	rs := results(t, stdout)
	if code != 0 || rs[0].Status != host.StatusCompleted || string(rs[0].Value) != `["summary of the release notes",{"score":4}]` {
		t.Fatalf("exit %d: %s\n%s", code, stdout, stderr)
	}
	if f.requests() != 3 {
		t.Fatalf("%d requests", f.requests())
	}
	models := map[string]int{}
	bodies, keys := f.seen()
	for i, b := range bodies {
		models[b["model"].(string)]++
		if keys[i] != providerKey || b["max_tokens"] != 100.0 || !strings.HasPrefix(b["system"].(string), "You are a sub-agent started by a program as ") {
			t.Errorf("request %d: key %q, %v", i, keys[i], b)
		}
	}
	retried := 0
	for _, b := range bodies {
		if msgs := b["messages"].([]any); len(msgs) == 3 && msgs[1].(map[string]any)["content"] == "I would say four." &&
			strings.HasPrefix(msgs[2].(map[string]any)["content"].(string), "Your answer is not valid: it is not JSON.") {
			retried++
		}
	}
	if retried != 1 {
		t.Errorf("no retry with the correction: %v", bodies)
	}
	if !reflect.DeepEqual(models, map[string]int{"claude-test": 1, "claude-small": 2}) {
		t.Errorf("models %v", models)
	}
	if v, ok := os.LookupEnv(providerKeyEnv); ok {
		t.Errorf("$%s is still in the environment: %q", providerKeyEnv, v)
	}
	if strings.Contains(stdout+stderr, providerKey) {
		t.Errorf("the key is in the output:\n%s\n%s", stdout, stderr)
	}
}

// TestExecProviderHostile: cells that try to spend past the cell budget
// with many agents.run, and a provider that echoes the key in its errors;
// the key never reaches the output, the trajectory, the errors or the
// logs, nor an MCP server that inherits the whole environment.
func TestExecProviderHostile(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(host.DebugEnv, "1") // the logs at info, the provider's included
	f := newFakeAnthropic(t, func(msgs []string) (int, string) {
		if msgs[0] == "leak" {
			return 401, "invalid x-api-key: " + providerKey
		}
		return 200, "ok"
	})
	// Each child holds its prompt's estimate and maxTokens (100) before it
	// is sent, and is charged 200: fewer than 10 fit in 1000.
	cfg := providerConfig(t, f, "budget: { cellTokens: 1000 }")
	raw, _ := os.ReadFile(cfg)
	cfg = writeFile(t, "hostile.json5", strings.Replace(string(raw), "plugins:", fmt.Sprintf(
		`mcpServers: { envdump: { command: %q, env: { %s: "env" }, inheritEnv: true } }, plugins:`, exe, mcpServerEnv), 1))
	const flood = `const rs = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => agents.run("task " + i)));
		const refused = rs.filter((r) => r.status === "rejected");
		const env = (await MCP.envdump.getEnv({})).structuredContent.env;
		return { ok: rs.length - refused.length, refused: refused.length, budget: refused.every((r) => r.reason.message.includes("token budget is spent")),
			first: refused[0]?.reason.message, env };`
	stdout, stderr, code := cli(t, "", "exec", "--trace", "--config", cfg, "-e", flood)
	rs := results(t, stdout)
	var got struct {
		OK, Refused int
		Budget      bool
		First       string
		Env         []string
	}
	if code != 0 || rs[0].Status != host.StatusCompleted || json.Unmarshal(rs[0].Value, &got) != nil {
		t.Fatalf("exit %d: %s\n%s", code, stdout, stderr)
	}
	if got.OK < 1 || got.OK > 9 || got.OK+got.Refused != 30 || !got.Budget || f.requests() != got.OK {
		t.Fatalf("%d ran, %d refused (budget: %v, %q), %d requests", got.OK, got.Refused, got.Budget, got.First, f.requests())
	}
	if !strings.Contains(got.First, `tools.swarm.provider.budget.cellTokens (1000)`) {
		t.Errorf("message %q", got.First)
	}
	for _, kv := range got.Env {
		if strings.HasPrefix(kv, providerKeyEnv+"=") || strings.Contains(kv, providerKey) {
			t.Errorf("the MCP server inherited %s", kv)
		}
	}
	if len(got.Env) == 0 || !strings.Contains(stderr, "sub-agent answered") || !strings.Contains(stderr, `"nested_call"`) {
		t.Errorf("no env, logs or trace: %d %s", len(got.Env), stderr)
	}
	// A provider that echoes the key in its error: the cell sees it
	// redacted, and so do the trace and the logs. (The command took the
	// key's variable out of the environment: it is set again.)
	t.Setenv(providerKeyEnv, providerKey)
	out, errOut, code := cli(t, "", "exec", "--trace", "--config", cfg, "-e", `return await agents.run("leak").catch((e) => e.message)`)
	if rs := results(t, out); code != 0 || string(rs[0].Value) != `"sub-agent failed: the provider answered 401 Unauthorized: invalid x-api-key: [key]"` {
		t.Errorf("exit %d: %s", code, out)
	}
	if !strings.Contains(errOut, "sub-agent failed") || !strings.Contains(errOut, `"nested_call"`) {
		t.Errorf("no log or trace of the failure: %s", errOut)
	}
	stdout, stderr = stdout+out, stderr+errOut
	if strings.Contains(stdout+stderr, providerKey) {
		t.Errorf("the key is in the output:\n%s\n%s", stdout, stderr)
	}
}

// envServer is an MCP server whose getEnv tool answers its environment.
func envServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "envdump", Version: "1"}, nil)
	type out struct {
		Env []string `json:"env"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "get_env", Description: "The server's environment."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, out, error) {
			return nil, out{os.Environ()}, nil
		})
	return s
}

// A provider config that cannot be used stops the command with the field's
// name; a key that is not there, with the variable's.
func TestExecProviderConfigErrors(t *testing.T) {
	for src, want := range map[string]string{
		`{ tools: { codeMode: true, swarm: { enabled: true, provider: { kind: "openai", model: "m", keyEnv: "TEST_PROVIDER_NOT_SET" } } } }`: "tools.swarm.provider.keyEnv: $TEST_PROVIDER_NOT_SET is not set",
		`{ tools: { codeMode: true, swarm: { enabled: true, provider: { kind: "openai", model: "m", keyFile: "none.key" } } } }`:             "tools.swarm.provider.keyFile: cannot read ",
		`{ tools: { codeMode: true, swarm: { enabled: true, provider: { kind: "ollama", model: "m" } } } }`:                                  `tools.swarm.provider.kind: must be "openai" or "anthropic"`,
	} {
		_, stderr, code := cli(t, "", "exec", "--config", writeFile(t, "bad.json5", src), "-e", "return 1")
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, %s", src, code, stderr)
		}
	}
}

// TestServeSwarmThroughProvider: serve with a provider runs children
// through it for a client that offers no sampling.
func TestServeSwarmThroughProvider(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	f := newFakeAnthropic(t, func(msgs []string) (int, string) { return 200, "served: " + msgs[0] })
	cfg := providerConfig(t, f, "")
	bin := buildCommand(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := connectServe(t, ctx, sdk.NewClient(&sdk.Implementation{Name: "no-sampling", Version: "1"}, nil), bin, "--config", cfg)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": `return await agents.run("the notes")`}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r host.Result
	json.Unmarshal(b, &r)
	if r.Status != host.StatusCompleted || string(r.Value) != `"served: the notes"` || f.requests() != 1 {
		t.Fatalf("%s", b)
	}
}

// With keyFile, neither the key nor the file's path reaches the cell, the
// trace or the logs, even when the provider fails.
func TestExecProviderKeyFile(t *testing.T) {
	t.Setenv(host.DebugEnv, "1")
	f := newFakeAnthropic(t, func(msgs []string) (int, string) {
		if msgs[0] == "fail" {
			return 401, "bad key " + providerKey
		}
		return 200, "ok"
	})
	keyFile := writeFile(t, "provider-secret.key", providerKey+"\n")
	cfg := writeFile(t, "kf.json5", fmt.Sprintf(`{ tools: { codeMode: true, swarm: { enabled: true, provider: {
		kind: "anthropic", url: %q, model: "m", keyFile: %q } } }, plugins: { tracker: true } }`, f.srv.URL, keyFile))
	stdout, stderr, code := cli(t, "", "exec", "--trace", "--config", cfg, "-e",
		`return [await agents.run("hi"), await agents.run("fail").catch((e) => e.message)]`)
	if rs := results(t, stdout); code != 0 || string(rs[0].Value) != `["ok","sub-agent failed: the provider answered 401 Unauthorized: bad key [key]"]` {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if _, keys := f.seen(); keys[0] != providerKey {
		t.Errorf("sent key %q", keys[0])
	}
	for _, secret := range []string{providerKey, "provider-secret.key"} {
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%q is in the output:\n%s\n%s", secret, stdout, stderr)
		}
	}
}
