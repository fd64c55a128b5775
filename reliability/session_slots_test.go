package reliability

import (
	"context"
	"testing"
	"time"
)

// slotsConfig gives the stuck cells a deadline far past the test: only
// cancellation ends them.
const slotsConfig = `{
  tools: { codeMode: { enabled: true, timeoutMs: 60000 } },
  plugins: { demo: true },
}`

// TestSessionCannotHoldEverySlot is issue 28's attack on a real `codemode
// serve --http`: one session sends twelve `while (1) {}` cells at once,
// more than the process has cell slots, and then another session's
// `return 1` probes must answer while none of the twelve has ended. Before
// sessions had a share of the slots, each probe queued behind the stuck
// cells until one of them hit its deadline. The worst probe latency is
// logged for bench/RESULTS.md.
func TestSessionCannotHoldEverySlot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := startServe(t, slotsConfig)
	ctx := context.Background()
	attacker, prober := dialSession(t, srv.url), dialSession(t, srv.url)

	actx, stop := context.WithCancel(ctx)
	defer stop()
	ended := make(chan string, 12)
	for range 12 {
		go func() {
			r, _, err := callResult(actx, attacker, "exec", map[string]any{"code": "while (1) {}"})
			if err != nil {
				ended <- err.Error()
				return
			}
			ended <- describe(r)
		}()
	}
	var worst time.Duration
	for i := range 5 {
		// A liveness bound, not a speed assertion: without a share, the
		// probe waits for a stuck cell's 60 s deadline.
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		t0 := time.Now()
		r, _, err := callResult(pctx, prober, "exec", map[string]any{"code": "return 1"})
		worst = max(worst, time.Since(t0))
		cancel()
		if err != nil || string(r.Value) != "1" {
			t.Fatalf("probe %d: %v %s", i, err, describe(r))
		}
		if len(ended) != 0 {
			t.Fatalf("a stuck cell ended before probe %d answered: %s", i, <-ended)
		}
	}
	t.Logf("5 probes answered beside 12 stuck cells of one session, worst %v", worst.Round(time.Millisecond))
	stop()
	for range 12 {
		<-ended // cancelled by the client: the cell aborts or the call errors
	}
}
