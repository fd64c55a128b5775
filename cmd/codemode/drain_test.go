package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/internal/redistest"
)

// replica is a serve binary, stateless behind a shared Redis.
type replica struct {
	addr   string
	cmd    *exec.Cmd
	stderr *syncBuffer
	cs     *sdk.ClientSession
}

func startReplica(t *testing.T, ctx context.Context, bin string, hc *http.Client, args ...string) *replica {
	t.Helper()
	r := &replica{addr: freeAddr(t), stderr: &syncBuffer{}}
	r.cmd = exec.Command(bin, append([]string{"serve", "--http", r.addr, "--stateless"}, args...)...)
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("replica %s:\n%s", r.addr, r.stderr.String())
		}
	})
	var err error
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	for range 200 {
		if r.cs, err = client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + r.addr + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil); err == nil {
			t.Cleanup(func() { r.cs.Close() })
			return r
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("connect to replica: %v\n%s", err, r.stderr.String())
	return nil
}

func (r *replica) call(t *testing.T, ctx context.Context, name string, args map[string]any) map[string]any {
	res, err := r.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// SIGTERM during cells: /readyz fails, a new cell is refused as busy with
// a hint to call again, a cell that finishes within --drain completes, one
// that would not fails saying why, a run parked with a call in flight has
// that call's outcome settled into Redis, and serve exits 0; a second
// replica then resumes the parked run.
func TestServeDrain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	noTokenEnv(t)
	const token = "tok-drain-0123456789abcdef"
	args := []string{"--token-file", writeFile(t, "token", token), "--store", redistest.Start(t),
		"--store-key-file", writeFile(t, "store.key", "key-drain-0123456789abcdef0123456789abcdef"), "--drain", "3s"}
	hc := &http.Client{Transport: headerClient("Bearer " + token)}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bin := buildCommand(t)
	one := startReplica(t, ctx, bin, hc, args...)

	parked := one.call(t, ctx, "exec", map[string]any{"code": `const p = tools.slow_echo({ ms: 2500, value: "settled" });
		await yield_control("later"); return (await p).value`})
	if parked["status"] != "waiting" {
		t.Fatalf("park: %v", parked)
	}
	var wg sync.WaitGroup
	var quick, slow map[string]any
	wg.Add(2)
	go func() {
		defer wg.Done()
		quick = one.call(t, ctx, "exec", map[string]any{"code": `return (await tools.slow_echo({ ms: 1000, value: "quick" })).value`})
	}()
	go func() {
		defer wg.Done()
		slow = one.call(t, ctx, "exec", map[string]any{"code": `return (await tools.slow_echo({ ms: 30000 })).sleptMs`})
	}()
	time.Sleep(300 * time.Millisecond) // both in flight
	one.cmd.Process.Signal(syscall.SIGTERM)

	var ready string
	for range 100 {
		res, err := http.Get("http://" + one.addr + "/readyz")
		if err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if ready = fmt.Sprintf("%d %s", res.StatusCode, strings.TrimSpace(string(b))); res.StatusCode == 503 {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(ready, "503 not ready: draining") {
		t.Errorf("/readyz while draining: %q", ready)
	}
	if r := one.call(t, ctx, "exec", map[string]any{"code": "return 1"}); r["status"] != "failed" || r["code"] != "runtime_unavailable" ||
		r["reason"] != "busy" || !strings.Contains(fmt.Sprint(r["error"]), "call again") {
		t.Errorf("a new cell while draining: %v", r)
	}
	wg.Wait()
	if quick["status"] != "completed" || quick["value"] != "quick" {
		t.Errorf("the cell that finishes within the drain: %v", quick)
	}
	if slow["status"] != "failed" || slow["code"] != "runtime_unavailable" || !strings.Contains(fmt.Sprint(slow["error"]), "drain deadline") {
		t.Errorf("the cell past the drain: %v", slow)
	}
	if err := one.cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v\n%s", err, one.stderr.String())
	}

	two := startReplica(t, ctx, bin, hc, args...)
	if r := two.call(t, ctx, "wait", map[string]any{"runId": parked["runId"]}); r["status"] != "completed" || r["value"] != "settled" {
		t.Errorf("the parked run on the second replica: %v", r)
	}
}
