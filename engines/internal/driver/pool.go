package driver

import (
	"context"

	"github.com/seed11a79d2d/codemode/abi"
)

// acquire takes an idle instance at template state, or makes one.
func (e *Engine) acquire(ctx context.Context) (*Instance, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "quickjs-wasi engine is closed"}
	}
	select {
	case in := <-e.idle:
		return in, nil
	default:
	}
	in, err := e.acquireNew(ctx)
	if err != nil {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "instantiate quickjs-wasi" + e.cfg.on() + ": " + err.Error()}
	}
	return in, nil
}

// release resets an instance to the template and pools it, or drops it.
func (e *Engine) release(in *Instance) {
	in.host = nil
	in.interrupted, in.outOfMemory = abi.InterruptNone, false
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if in.dead || closed || !e.tmpl.reset(in) {
		in.mod.Close(context.Background())
		return
	}
	select {
	case e.idle <- in:
	default:
		in.mod.Close(context.Background())
	}
}

// noteStop counts and reports a call the runtime stopped.
func (e *Engine) noteStop() {
	e.mu.Lock()
	e.stopped++
	e.mu.Unlock()
	e.cfg.Logger.Warn("quickjs-wasi guest call ran past its deadline and grace period; it was stopped and its instance discarded" + e.cfg.on())
}
