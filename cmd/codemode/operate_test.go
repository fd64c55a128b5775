package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/seed11a79d2d/codemode/internal/redistest"
)

// Serve with a bearer token, a signed run store and a config holding an
// OAuth client secret and a header secret, with metrics, an audit trail and
// every log line at debug: the counters move with the cells, the trail
// verifies, /readyz says what is missing, and no secret is in any log line.
func TestServeOperatingSurface(t *testing.T) {
	noTokenEnv(t)
	const (
		token     = "tok-ops-0123456789abcdef"
		storeKey  = "key-ops-0123456789abcdef0123456789abcdef"
		oauthSec  = "oauth-secret-0123456789"
		headerSec = "header-secret-0123456789"
	)
	t.Setenv(tokenEnv, token)
	dir := t.TempDir()
	keyFile := writeFile(t, "store.key", storeKey)
	down := freeAddr(t) // an MCP server that never answers
	config := writeFile(t, "codemode.json5", fmt.Sprintf(`{ tools: { codeMode: true }, plugins: { demo: true },
		mcpServers: { vault: { url: "http://%s/mcp", headers: { "X-Api-Key": %q },
			oauth: { clientId: "ci", clientSecret: %q, grant: "client_credentials" } } } }`, down, headerSec, oauthSec))
	trail, metricsAddr, addr := filepath.Join(dir, "audit.jsonl"), freeAddr(t), freeAddr(t)
	hc := &http.Client{Transport: headerClient("Bearer " + token)}
	cs, stop := serveHTTP(t, hc, "--http", addr, "--config", config, "--store", redistest.Start(t), "--store-key-file", keyFile,
		"--metrics", metricsAddr, "--audit", trail, "--log-format", "json", "--log-level", "debug")
	ctx := context.Background()
	exec := func(code string) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": code}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r map[string]any
		json.Unmarshal(b, &r)
		return r
	}
	// The token, in code and arguments, is hashed into the trail, never logged.
	if r := exec(fmt.Sprintf(`const r = await MCP.docs.searchDocs({ query: %q }); return r.structuredContent.pages.length`, token)); r["status"] != "completed" {
		t.Fatal(r)
	}
	parked := exec(`await yield_control("later"); return 1`)
	if parked["status"] != "waiting" {
		t.Fatal(parked)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "wait", Arguments: map[string]any{"runId": parked["runId"]}})
	if err != nil || res.IsError {
		t.Fatalf("wait: %v %v", err, res)
	}

	scrape := func(hc *http.Client) (int, map[string]float64) {
		res, err := hc.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			return res.StatusCode, nil
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		sums := map[string]float64{}
		for name, f := range fams {
			for _, m := range f.GetMetric() {
				sums[name] += m.GetCounter().GetValue() + m.GetGauge().GetValue() + float64(m.GetHistogram().GetSampleCount())
			}
		}
		return 200, sums
	}
	if code, _ := scrape(http.DefaultClient); code != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token: %d", code)
	}
	_, m := scrape(hc)
	for name, want := range map[string]float64{"codemode_cells_started_total": 3, "codemode_cells_finished_total": 3,
		"codemode_nested_calls_total": 1, "codemode_snapshot_bytes": 1, "codemode_sessions": 1, "codemode_downstream_up": 1} { // docs up, vault down
		if m[name] != want {
			t.Errorf("%s = %v, want %v", name, m[name], want)
		}
	}
	if m["codemode_store_duration_seconds"] < 2 { // park, claim, ...
		t.Errorf("store operations: %v", m["codemode_store_duration_seconds"])
	}
	for path, want := range map[string]string{"/healthz": "200 ok", "/readyz": "503 not ready: 1 MCP server(s) not initialized yet"} {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if got := fmt.Sprintf("%d %s", res.StatusCode, strings.TrimSpace(string(body))); got != want {
			t.Errorf("%s without the token: %q, want %q", path, got, want)
		}
	}

	code, stderr := stop()
	if code != 0 {
		t.Fatalf("serve exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	legs := 0
	for _, line := range lines {
		for _, secret := range []string{token, storeKey, oauthSec, headerSec} {
			if strings.Contains(line, secret) {
				t.Errorf("a secret in the log: %s", line)
			}
		}
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil {
			t.Errorf("not a JSON log line: %s", line)
		}
		if rec["msg"] == "cell leg" {
			legs++
		}
	}
	if legs != 3 {
		t.Errorf("%d leg lines:\n%s", legs, stderr)
	}

	// The trail verifies, and names the line that was edited.
	stdout, errout, status := cli(t, "", "audit", "verify", trail)
	if status != 0 || !strings.Contains(stdout, "4 records, chain intact") {
		t.Fatalf("audit verify: %d %s %s", status, stdout, errout)
	}
	b, _ := os.ReadFile(trail)
	if bytes.Contains(b, []byte(token)) {
		t.Fatal("the token is in the trail")
	}
	recs := strings.SplitAfter(string(b), "\n")
	recs[1] = strings.Replace(recs[1], `"status":"completed"`, `"status":"failed"`, 1)
	os.WriteFile(trail, []byte(strings.Join(recs, "")), 0o600)
	if _, errout, status := cli(t, "", "audit", "verify", trail); status != 1 || !strings.Contains(errout, "line 2: edited") {
		t.Fatalf("audit verify of an edited trail: %d %s", status, errout)
	}
}

// Bad operating flags and trails are usage errors that say what to fix.
func TestServeOperatingFlagErrors(t *testing.T) {
	noTokenEnv(t)
	partial := writeFile(t, "partial.jsonl", `{"seq":1,"prev":"`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--log-format", "xml"}, `log format "xml": use text or json`},
		{[]string{"--log-level", "loud"}, `log level "loud"`},
		{[]string{"--metrics", "0.0.0.0:0"}, "serve metrics on 0.0.0.0:0: a bearer token is required"},
		{[]string{"--audit", partial}, "ends in a partial line"},
		{[]string{"--audit", filepath.Join(t.TempDir(), "no", "dir", "a.jsonl")}, "open audit trail"},
	} {
		if _, stderr, code := cli(t, "", append([]string{"serve"}, tc.args...)...); code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 with %q:\n%s", tc.args, code, tc.want, stderr)
		}
	}
	for _, args := range [][]string{{"audit"}, {"audit", "check", partial}, {"audit", "verify", filepath.Join(t.TempDir(), "none")}} {
		if _, _, code := cli(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if _, stderr, code := cli(t, "", "audit", "verify", partial); code != exitFailed || !strings.Contains(stderr, "line 1: partial last line") {
		t.Errorf("verify a partial trail: %d %s", code, stderr)
	}
}
