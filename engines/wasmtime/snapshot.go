//go:build wasmtime

package wasmtime

import (
	"context"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// Snapshot implements [abi.Cell] in the shared format of package image, so
// the wazero engine restores what this one takes. The cell stays usable.
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
	if in.getSP() != t.SP {
		return nil, image.Errorf("cell is inside a call")
	}
	return t.Encode(c.eng.enc, in.memory(), c.result), nil
}

// Restore implements [abi.Engine]: the image, from this engine or the wazero
// one, is applied to a pooled instance at template state, and the cell
// continues where the snapshot stopped.
func (e *Engine) Restore(ctx context.Context, img []byte, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	d, err := e.tmpl.Decode(e.dec, img, uint64(e.opts.MaxMemoryBytes)+memoryHeadroom)
	if err != nil {
		return nil, err
	}
	in, err := e.acquire()
	if err != nil {
		return nil, err
	}
	if cur := uint64(in.mem.DataSize(in.store)); cur < uint64(d.Size) {
		if _, err := in.mem.Grow(in.store, (uint64(d.Size)-cur)/image.WasmPage); err != nil {
			e.release(in)
			return nil, &abi.Failure{Kind: abi.FailureMemoryLimit, Message: "snapshot memory exceeds the engine's limit"}
		}
	}
	d.Apply(in.memory())
	return e.start(in, limits, host, d.Result)
}
