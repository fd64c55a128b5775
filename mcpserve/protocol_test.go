package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// revisions are the MCP revisions a client may ask for, oldest first, and
// the one serve answers with: its own newest session revision for a client
// that asks for one serve does not speak (2024-10-07, which the TS SDK
// still offers, and 2026-07-28, which has no sessions; such clients fall
// back to initialize).
var revisions = []struct{ asked, agreed string }{
	{"2024-10-07", "2025-11-25"},
	{"2024-11-05", "2024-11-05"},
	{"2025-03-26", "2025-03-26"},
	{"2025-06-18", "2025-06-18"},
	{"2025-11-25", "2025-11-25"},
	{"2026-07-28", "2025-11-25"},
}

// elicits says whether a session at revision v may be asked for approval:
// elicitation arrived in 2025-06-18.
func elicits(v string) bool { return v >= "2025-06-18" }

// The matrix cells: a plain exec, a parked one resumed by wait, one that
// reports progress, and a destructive call that needs a person's approval.
const (
	matrixAdd   = `return await tools.callValue("openclaw:core:add", {a: 2, b: 3});`
	matrixPark  = `return await tools.callValue("openclaw:core:sleep", {ms: 3000});`
	matrixSlow  = `await tools.callValue("openclaw:core:add", {a: 1, b: 1}); return await tools.callValue("openclaw:core:sleep", {ms: 1100});`
	refusedText = "it needs a person's approval, and the client does not support elicitation"
)

// matrixRuntime serves the fixture's tools plus wipe, which needs approval.
func matrixRuntime(t testing.TB) (*fixture, *Relay) {
	f, err := buildFixture(parkConfig)
	if err != nil {
		t.Fatal(err)
	}
	f.rt.Close(context.Background())
	relay := &Relay{}
	var wiped []string
	f.rt = approvalRuntimeWith(t, parkConfig, relay, &wiped, f.tools)
	return f, relay
}

// Go SDK clients at every revision, over stdio and streamable HTTP, run
// exec, wait, progress and approvals, and agree on the revision serve
// answers with.
func TestProtocolMatrixGoSDK(t *testing.T) {
	for _, rev := range revisions[1:] {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(rev.asked+"/"+transport, func(t *testing.T) {
				t.Parallel()
				f, relay := matrixRuntime(t)
				var progress atomic.Int64
				copts := &sdk.ClientOptions{
					ElicitationHandler: func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
						return &sdk.ElicitResult{Action: "accept"}, nil
					},
					ProgressNotificationHandler: func(ctx context.Context, r *sdk.ProgressNotificationClientRequest) {
						progress.Add(1)
					},
				}
				var tr sdk.Transport
				if transport == "stdio" {
					tr = pipeTransport(t, f.rt, Options{Relay: relay})
				} else {
					tr = &sdk.StreamableClientTransport{Endpoint: f.httpWith(t, &Options{Relay: relay}), MaxRetries: -1}
				}
				cs, err := sdk.NewClient(&sdk.Implementation{Name: "matrix", Version: "1"}, copts).
					Connect(context.Background(), tr, &sdk.ClientSessionOptions{ProtocolVersion: rev.asked})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				if got := cs.InitializeResult().ProtocolVersion; got != rev.agreed {
					t.Fatalf("agreed on %s, want %s", got, rev.agreed)
				}
				ctx := context.Background()
				if _, r := call(t, ctx, cs, "exec", map[string]string{"code": matrixAdd}); r["value"] != 5.0 {
					t.Errorf("exec: %v", r)
				}
				_, r := call(t, ctx, cs, "exec", map[string]string{"code": matrixPark})
				if r["status"] != "waiting" {
					t.Fatalf("slow exec: %v", r)
				}
				for range 10 {
					if _, r = call(t, ctx, cs, "wait", map[string]any{"runId": r["runId"]}); r["status"] != "waiting" {
						break
					}
				}
				if r["status"] != "completed" {
					t.Errorf("wait: %v", r)
				}
				params := &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{"code": matrixSlow}}
				params.SetProgressToken("p")
				if _, err := cs.CallTool(ctx, params); err != nil {
					t.Fatal(err)
				}
				for deadline := time.Now().Add(liveness); progress.Load() < 2 && time.Now().Before(deadline); {
					time.Sleep(10 * time.Millisecond)
				}
				if progress.Load() < 2 {
					t.Errorf("%d progress notifications", progress.Load())
				}
				_, r = call(t, ctx, cs, "exec", map[string]string{"code": wipeCell})
				want := "wiped"
				if !elicits(rev.agreed) {
					want = refusedText
				}
				if got, _ := r["value"].(string); !strings.Contains(got, want) {
					t.Errorf("approval: %q, want %q", got, want)
				}
			})
		}
	}
}

// The TypeScript SDK's own client, at each revision it offers, runs the
// same four cells against serve over stdio and streamable HTTP.
func TestProtocolMatrixTSSDK(t *testing.T) {
	node, modules := peers(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/matrix-client.mjs")
	for _, rev := range revisions {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(rev.asked+"/"+transport, func(t *testing.T) {
				t.Parallel()
				target := map[string]any{"command": exe, "env": map[string]string{stdioServerEnv: "matrix"}}
				if transport == "http" {
					f, relay := matrixRuntime(t)
					target = map[string]any{"url": f.httpWith(t, &Options{Relay: relay})}
				}
				arg, _ := json.Marshal(map[string]any{"target": target, "version": rev.asked,
					"cells": map[string]string{"add": matrixAdd, "park": matrixPark, "slow": matrixSlow, "wipe": wipeCell}})
				cmd := exec.Command(node, script, string(arg))
				cmd.Env = append(os.Environ(), "MODULES="+modules)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("client: %v\n%s\n%s", err, stdout.String(), stderr.String())
				}
				var got struct {
					Version  string
					Add      any
					Wait     string
					Progress int
					Wipe     string
				}
				if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
					t.Fatalf("client output %q: %v\n%s", stdout.String(), err, stderr.String())
				}
				want := "wiped"
				if !elicits(rev.agreed) {
					want = refusedText
				}
				if got.Version != rev.agreed || got.Add != 5.0 || got.Wait != "completed" || got.Progress < 2 || !strings.Contains(got.Wipe, want) {
					t.Errorf("got %+v, want revision %s, add 5, wait completed, ≥ 2 progress, wipe %q\n%s", got, rev.agreed, want, stderr.String())
				}
			})
		}
	}
}
