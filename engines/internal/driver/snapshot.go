package driver

import (
	"context"
	"errors"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// Snapshot implements [abi.Cell] in the format of package image, so any
// runtime's engine restores it. The cell stays usable.
func (c *cell) Snapshot(context.Context) ([]byte, error) {
	switch {
	case c.failed != nil:
		return nil, image.Errorf("cell has failed: %s", c.failed.Error())
	case c.in == nil:
		return nil, image.Errorf("cell is closed")
	case c.result == 0:
		return nil, image.Errorf("cell has not run")
	}
	in, t := c.in, c.eng.tmpl
	if in.mod.StackPointer() != t.SP {
		return nil, image.Errorf("cell is inside a call")
	}
	mem := in.mod.Memory()
	return t.EncodePages(c.eng.enc, mem, c.result, t.dirty(in, mem)), nil
}

// Restore implements [abi.Engine]: the image, from this engine or another
// runtime's, is applied to a pooled instance at template state, and the cell
// continues where the snapshot stopped.
func (e *Engine) Restore(ctx context.Context, img []byte, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	d, err := e.tmpl.Decode(e.dec, img, e.cfg.MemoryCap())
	if err != nil {
		return nil, err
	}
	in, err := e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if cur := uint32(len(in.mod.Memory())); cur < d.Size {
		if err := in.mod.Grow((d.Size - cur) / image.WasmPage); err != nil {
			e.release(in)
			return nil, &abi.Failure{Kind: abi.FailureMemoryLimit, Message: "snapshot memory exceeds the engine's limit"}
		}
	}
	mem := in.mod.Memory()
	if uint32(len(mem)) < d.Size {
		e.release(in)
		return nil, errors.New("snapshot: guest memory unavailable")
	}
	d.Apply(mem[:d.Size])
	return e.start(in, limits, host, d.Result)
}
