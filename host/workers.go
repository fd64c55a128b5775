package host

import (
	"sync"
	"time"
)

// workerIdle is how long an idle worker waits for another call.
const workerIdle = 2 * time.Second

// workers runs nested calls on reused goroutines. A fresh goroutine per call
// would grow its stack anew for every call (JSON decoding needs a deep one),
// which cost about an eighth of a nested call's CPU time.
type workers struct {
	jobs chan func() // unbuffered: a send succeeds only when a worker is idle
	stop chan struct{}
	once sync.Once
}

func newWorkers() *workers { return &workers{jobs: make(chan func()), stop: make(chan struct{})} }

// run starts f on an idle worker, or on a new one.
func (w *workers) run(f func()) {
	select {
	case w.jobs <- f:
	default:
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(workerIdle)
		select {
		case f = <-w.jobs:
		case <-idle.C:
			return
		case <-w.stop:
			return
		}
	}
}

// close lets idle workers exit; busy ones exit when their call returns.
func (w *workers) close() { w.once.Do(func() { close(w.stop) }) }
