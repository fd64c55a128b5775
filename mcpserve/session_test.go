package mcpserve

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// liveness bounds what should happen promptly; it is never what a test
// measures.
const liveness = 30 * time.Second

// parkConfig gives an exec that must park on a slow nested call room for the
// cell to start and make the call before its deadline, on a loaded machine
// too.
const parkConfig = `{"enabled":true,"timeoutMs":2000}`

// parkRun opens an HTTP session on url and leaves a run waiting on a long
// nested call; it returns the session and the runId. With a tiny idle time
// the session can expire between connecting and the call on a busy machine,
// so that is retried with a fresh session.
func parkRun(t *testing.T, url string) (*sdk.ClientSession, any) {
	t.Helper()
	var last error
	for range 20 {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]string{
			"code": `return await tools.callValue("openclaw:core:sleep", {ms: 600000});`}})
		if err != nil {
			last = err
			cs.Close()
			continue
		}
		r, _ := res.StructuredContent.(map[string]any)
		if r["status"] != "waiting" {
			t.Fatalf("exec: %v", r)
		}
		return cs, r["runId"]
	}
	t.Fatalf("no session lived long enough to park a run: %v", last)
	return nil, nil
}

func started(t *testing.T, f *fixture) {
	t.Helper()
	select {
	case <-f.started:
	case <-time.After(liveness):
		t.Fatal("the nested call did not start")
	}
}

// released waits until a parked run's nested call is cancelled, which is
// what ending its run does.
func released(t *testing.T, f *fixture, what string) {
	t.Helper()
	select {
	case <-f.cancelled:
	case <-time.After(liveness):
		t.Fatalf("%s: the parked run was not released", what)
	}
}

func TestIdleSessionReleasesItsParkedRuns(t *testing.T) {
	f := newFixture(t, parkConfig) // a request in flight pauses the idle timer
	url := f.httpWith(t, &Options{SessionIdle: 200 * time.Millisecond})
	cs, runID := parkRun(t, url)
	defer cs.Close()
	started(t, f)
	released(t, f, "idle session")

	// The run is gone, not merely another session's: a wait from a new
	// session is told it is unavailable.
	var r map[string]any
	for range 20 { // the new session can expire before its call, as in parkRun
		other := connect(t, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
		res, err := other.CallTool(context.Background(), &sdk.CallToolParams{Name: "wait", Arguments: map[string]any{"runId": runID}})
		other.Close()
		if err == nil {
			r, _ = res.StructuredContent.(map[string]any)
			break
		}
	}
	if r["error"] != "code mode run is unavailable or expired." {
		t.Fatalf("wait after expiry: %v", r)
	}
	// And the expired session itself is gone.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wait", Arguments: map[string]any{"runId": runID}}); err == nil {
		t.Error("the expired session still answers")
	}
}

func TestClosedSessionReleasesItsParkedRuns(t *testing.T) {
	f := newFixture(t, parkConfig)
	url := f.httpWith(t, &Options{SessionIdle: -1})
	cs, _ := parkRun(t, url)
	started(t, f)
	cs.Close() // DELETE ends the session on the server
	released(t, f, "closed session")
}

func TestSessionIdleDefault(t *testing.T) {
	for in, want := range map[time.Duration]time.Duration{0: DefaultSessionIdle, -1: 0, time.Minute: time.Minute} {
		if got := (&Options{SessionIdle: in}).sessionIdle(); got != want {
			t.Errorf("SessionIdle %v: SDK timeout %v, want %v", in, got, want)
		}
	}
}
