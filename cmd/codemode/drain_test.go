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

// SIGTERM during 8 running cells and 4 parked: /readyz fails, a new cell
// is refused as busy with a hint to call again, the 4 cells that finish
// within --drain complete, the 4 that would not fail saying why, the parked
// runs' calls in flight have their outcomes settled into Redis, and serve
// exits 0; a second replica then resumes every parked run. None is lost.
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

	var parked []any
	for i := range 4 {
		r := one.call(t, ctx, "exec", map[string]any{"code": fmt.Sprintf(`const p = tools.slow_echo({ ms: 2500, value: "settled %d" });
			await yield_control("later"); return (await p).value`, i)})
		if r["status"] != "waiting" {
			t.Fatalf("park: %v", r)
		}
		parked = append(parked, r["runId"])
	}
	var wg sync.WaitGroup
	quick, slow := make([]map[string]any, 4), make([]map[string]any, 4)
	for i := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			quick[i] = one.call(t, ctx, "exec", map[string]any{"code": `return (await tools.slow_echo({ ms: 1000, value: "quick" })).value`})
		}()
		go func() {
			defer wg.Done()
			slow[i] = one.call(t, ctx, "exec", map[string]any{"code": `return (await tools.slow_echo({ ms: 30000 })).sleptMs`})
		}()
	}
	time.Sleep(300 * time.Millisecond) // all in flight
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
	for i := range 4 {
		if quick[i]["status"] != "completed" || quick[i]["value"] != "quick" {
			t.Errorf("a cell that finishes within the drain: %v", quick[i])
		}
		if slow[i]["status"] != "failed" || slow[i]["code"] != "runtime_unavailable" || !strings.Contains(fmt.Sprint(slow[i]["error"]), "drain deadline") {
			t.Errorf("a cell past the drain: %v", slow[i])
		}
	}
	if err := one.cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v\n%s", err, one.stderr.String())
	}

	two := startReplica(t, ctx, bin, hc, args...)
	for i, id := range parked {
		if r := two.call(t, ctx, "wait", map[string]any{"runId": id}); r["status"] != "completed" || r["value"] != fmt.Sprintf("settled %d", i) {
			t.Errorf("parked run %d on the second replica: %v", i, r)
		}
	}
}
