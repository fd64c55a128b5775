package reliability

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/host"
)

// TestParkedRunsOverHTTP: 65 MCP sessions over loopback HTTP each park one
// yielding cell. Exactly 64 park and one is refused with the exact message;
// with a 12 s TTL, waits racing expiry either resume (completed) or fail with
// the expired message, and after expiry every run is gone and a new
// suspension is accepted again.
func TestParkedRunsOverHTTP(t *testing.T) {
	w := newWorld(t)
	rt := newRuntime(t, w, `{"enabled": true, "timeoutMs": 5000, "snapshotTtlSeconds": 12}`)
	url := serveHTTP(t, rt)
	const ttl = 12 * time.Second // longer than opening 65 sessions on a slow machine
	ctx := context.Background()
	type parked struct {
		cs    interface{ Close() error }
		runID string
		at    time.Time
		call  func(string, map[string]any) (host.Result, error)
	}
	var runs []parked
	refusals := 0
	for i := range 65 {
		cs, err := dialHTTP(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		call := func(name string, args map[string]any) (host.Result, error) {
			r, _, err := callResult(ctx, cs, name, args)
			return r, err
		}
		r, err := call("exec", map[string]any{"code": `await yield_control("park"); return 1`})
		switch {
		case err != nil:
			t.Fatal(err)
		case r.Status == host.StatusWaiting:
			runs = append(runs, parked{cs, r.RunID, time.Now(), call})
		case r.Status == host.StatusFailed && r.Code == "invalid_input" && r.Error == "too many suspended code mode runs.":
			refusals++
		default:
			t.Fatalf("session %d: %s", i, describe(r))
		}
	}
	if len(runs) != 64 || refusals != 1 {
		t.Fatalf("%d parked, %d refused; want 64 and 1", len(runs), refusals)
	}
	// Half the waits go in right away, half right at the TTL: each must
	// complete or be refused as expired.
	var wg sync.WaitGroup
	outcomes := make(chan string, len(runs))
	for i, p := range runs {
		wg.Go(func() {
			if i%2 == 1 {
				time.Sleep(time.Until(p.at.Add(ttl - 40*time.Millisecond + time.Duration(i%8)*10*time.Millisecond)))
			}
			r, err := p.call("wait", map[string]any{"runId": p.runID})
			switch {
			case err != nil:
				outcomes <- "error: " + err.Error()
			case r.Status == host.StatusCompleted && string(r.Value) == "1":
				outcomes <- "completed"
			case r.Status == host.StatusFailed && r.Error == "code mode run is unavailable or expired.":
				outcomes <- "expired"
			default:
				outcomes <- describe(r)
			}
		})
	}
	wg.Wait()
	close(outcomes)
	counts := map[string]int{}
	for o := range outcomes {
		counts[o]++
	}
	if counts["completed"]+counts["expired"] != len(runs) || counts["completed"] < len(runs)/2 {
		t.Fatalf("outcomes %v", counts)
	}
	t.Logf("waits racing a %v TTL: %v", ttl, counts)
	r, err := runs[0].call("exec", map[string]any{"code": `await yield_control("again"); return 3`})
	if err != nil || r.Status != host.StatusWaiting {
		t.Fatalf("after the waits a new suspension is refused: %v %s", err, describe(r))
	}
	time.Sleep(ttl + 200*time.Millisecond)
	if r, _ := runs[0].call("wait", map[string]any{"runId": r.RunID}); r.Error != "code mode run is unavailable or expired." {
		t.Fatalf("an expired run resumed: %s", describe(r))
	}
}
