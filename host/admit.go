package host

import (
	"context"
	"fmt"
	"runtime"
	"time"
)

// defaultRunningCells is the default of Options.MaxRunningCells: enough to
// keep every core busy while other cells wait on tools, few enough that
// memory stays near slots x memoryLimitBytes.
func defaultRunningCells() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// admit waits for one of the runtime's cell slots, until the leg's deadline
// or its caller gives up: a burst queues instead of failing, and memory stays
// bounded. It returns the slot's release, or false without a slot.
func (r *Runtime) admit(ctx context.Context, deadline time.Time) (release func(), ok bool) {
	select {
	case r.slots <- struct{}{}:
		return func() { <-r.slots }, true
	default:
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r.slots <- struct{}{}:
		return func() { <-r.slots }, true
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil, false
}

func (r *Runtime) busyMessage() string {
	return fmt.Sprintf("code mode is busy: all %d cell slots stayed in use until this call's deadline; try again.", cap(r.slots))
}
