package reliability

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/host"
)

// TestEngineWatchdogFires: a guest call that overruns its context deadline
// (here a host callback that blocks, as a stuck one would) is taken out of
// service by the engine watchdog; the host reports runtime_unavailable, the
// run stays usable and the next cell runs on a fresh instance.
func TestEngineWatchdogFires(t *testing.T) {
	ctx := context.Background()
	eng, err := quickjswasi.New(ctx, &quickjswasi.Options{Prelude: host.Prelude(), WatchdogGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	w := newWorld(t)
	rt, err := host.New(ctx, &host.Options{Tools: w.tools, Engine: deadlineEngine{eng, 200 * time.Millisecond, 600 * time.Millisecond},
		Config: json.RawMessage(`{"enabled": true, "timeoutMs": 2000}`)})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	run := prepare(t, rt, testScope)
	r := run.Exec(ctx, "stuck", execArgs(`text("block"); return 1`))
	if r.Code != abi.CodeRuntimeUnavailable || !strings.Contains(r.Error, "taken out of service") {
		t.Fatalf("got %s", describe(r))
	}
	if eng.Quarantined() != 1 {
		t.Fatalf("quarantined %d instances", eng.Quarantined())
	}
	if r := run.Exec(ctx, "next", execArgs(`return 2`)); string(r.Value) != "2" {
		t.Fatalf("after the watchdog: %s", describe(r))
	}
}
