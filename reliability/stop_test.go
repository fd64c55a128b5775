package reliability

import (
	"context"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/host"
)

// TestBlockedHostCallEndsAsTimeout: a guest call that overruns its context
// deadline because a host callback blocked (as a stuck one would) is stopped
// at the guest's next tick past the grace period; the host reports a
// timeout, the run stays usable and the next cell runs on a fresh instance.
func TestBlockedHostCallEndsAsTimeout(t *testing.T) {
	ctx := context.Background()
	eng, err := quickjswasi.New(ctx, &quickjswasi.Options{Prelude: host.Prelude(), StopGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	w := newWorld(t)
	rt, err := host.New(ctx, &host.Options{Tools: w.tools, Engine: deadlineEngine{eng, 200 * time.Millisecond, 600 * time.Millisecond},
		CodeMode: &host.Config{Enabled: true, Timeout: 2000 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	run := prepare(t, rt, testScope)
	r := run.Exec(ctx, "stuck", execArgs(`text("block"); for (;;) {}`))
	if r.Code != abi.CodeTimeout {
		t.Fatalf("got %s", describe(r))
	}
	if eng.Stopped() != 1 {
		t.Fatalf("stopped %d guest calls", eng.Stopped())
	}
	if r := run.Exec(ctx, "next", execArgs(`return 2`)); string(r.Value) != "2" {
		t.Fatalf("after the stop: %s", describe(r))
	}
}
