package driver

import (
	"context"

	"github.com/seed11a79d2d/codemode/abi"
)

// White-box access for the shared engine tests (package enginetest).

// CellInstance is the instance a cell of this package runs on, nil once
// closed.
func CellInstance(c abi.Cell) *Instance { return c.(*cell).in }

// Module is the runtime instance behind in.
func (in *Instance) Module() Module { return in.mod }

// SetLimits overrides the cell's QuickJS limits, bypassing the engine's clamp.
func (in *Instance) SetLimits(l abi.Limits) { in.applyLimits(l) }

// Alive reports whether the instance still evaluates code.
func (in *Instance) Alive() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isTrap := r.(trap); !isTrap {
				panic(r)
			}
			ok = false
		}
	}()
	res, exc := in.eval("1 + 2", "probe.js")
	if exc != 0 {
		in.freeValue(exc)
		return false
	}
	ok = in.call(fnIsException, uint64(res)) == 0
	in.freeValue(res)
	return ok
}

// MaxIdle is the pool's bound on idle instances.
func (e *Engine) MaxIdle() int { return e.cfg.MaxIdle }

// StartCold makes an instance and loads the template into it, then drops it:
// what a cell costs when the pool is empty.
func (e *Engine) StartCold(ctx context.Context) error {
	in, err := e.instantiate(ctx)
	if err != nil {
		return err
	}
	defer in.mod.Close(ctx)
	return e.tmpl.load(in)
}

// TemplateBytes is the size of the template's linear memory.
func (e *Engine) TemplateBytes() int { return len(e.tmpl.Mem) }

// Template is the template's linear memory and stack pointer.
func (e *Engine) Template() ([]byte, uint32) { return e.tmpl.Mem, e.tmpl.SP }

// Mapped reports whether the template is mapped into in copy-on-write, so
// that resets and snapshots look only at the pages the kernel saw written.
func (in *Instance) Mapped() bool { return in.mapped != 0 }

// Unmap makes in's resets and snapshots compare every page, as where the OS
// offers no copy-on-write mapping; the mapping itself stays.
func (in *Instance) Unmap() { in.mapped = 0 }

// Reset returns in to the template now, as when its cell closes.
func (in *Instance) Reset() bool { return in.eng.tmpl.reset(in) }
