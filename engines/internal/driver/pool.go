package driver

import (
	"context"
	"time"

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
	in, err := e.instantiate(ctx)
	if err != nil {
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "instantiate quickjs-wasi" + e.cfg.on() + ": " + err.Error()}
	}
	if err := e.tmpl.load(in); err != nil {
		in.mod.Close(ctx)
		return nil, &abi.Failure{Kind: abi.FailureUnavailable, Message: "load template: " + err.Error()}
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
	if in.dead || in.quarantined.Load() || closed || !e.tmpl.reset(in) {
		in.mod.Close(context.Background())
		return
	}
	select {
	case e.idle <- in:
	default:
		in.mod.Close(context.Background())
	}
}

// watch takes out of service instances whose guest call overran its
// deadline by more than the grace period, for runtimes that cannot stop such
// a call without making every call slower: the instance is never reused and
// the overrun is reported.
func (e *Engine) watch() {
	defer e.wg.Done()
	tick := time.NewTicker(min(e.cfg.WatchdogGrace/4, 50*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-e.stop:
			return
		case now := <-tick.C:
			e.mu.Lock()
			for in := range e.busy {
				d := in.deadline.Load()
				if d != 0 && in.busySince.Load() != 0 && now.UnixNano() > d+int64(e.cfg.WatchdogGrace) {
					in.quarantined.Store(true)
					delete(e.busy, in)
					e.quarantined++
					e.cfg.Logger.Error("quickjs-wasi instance did not return after its deadline; taken out of service",
						"overrun", time.Duration(now.UnixNano()-d))
				}
			}
			e.mu.Unlock()
		}
	}
}

// track registers an instance with the watchdog while a cell owns it.
func (e *Engine) track(in *Instance, on bool) {
	if !e.watchdog {
		return
	}
	e.mu.Lock()
	if on {
		e.busy[in] = struct{}{}
	} else {
		delete(e.busy, in)
	}
	e.mu.Unlock()
}

// noteStop counts and reports a call the runtime stopped.
func (e *Engine) noteStop() {
	e.mu.Lock()
	e.stopped++
	e.mu.Unlock()
	e.cfg.Logger.Error("quickjs-wasi guest call ran past its deadline; " + e.cfg.Runtime + " stopped it and its instance is discarded")
}
