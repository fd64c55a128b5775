package quickjswasi

import (
	"context"
	"errors"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// The snapshot format ("CMSN" v1) is defined in package image and shared with
// the other runtimes' engines, so images move between them.

func snapshotError(format string, args ...any) *abi.Failure { return image.Errorf(format, args...) }

// Snapshot implements [abi.Cell]. The cell stays usable.
func (c *cell) Snapshot(context.Context) ([]byte, error) {
	switch {
	case c.failed != nil:
		return nil, snapshotError("cell has failed: %s", c.failed.Error())
	case c.in == nil:
		return nil, snapshotError("cell is closed")
	case c.result == 0:
		return nil, snapshotError("cell has not run")
	}
	in, t := c.in, c.eng.tmpl
	if uint32(in.sp.Get()) != t.SP {
		return nil, snapshotError("cell is inside a call")
	}
	mem, _ := in.mem.Read(0, in.mem.Size())
	return t.Encode(c.eng.enc, mem, c.result), nil
}

// Restore implements [abi.Engine]: the image is applied to a pooled instance
// at template state, and the cell continues where the snapshot stopped.
func (e *Engine) Restore(ctx context.Context, img []byte, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	d, err := e.tmpl.Decode(e.dec, img, uint64(e.opts.MaxMemoryBytes)+memoryHeadroom)
	if err != nil {
		return nil, err
	}
	in, err := e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if cur := in.mem.Size(); cur < d.Size {
		if _, ok := in.mem.Grow((d.Size - cur) / wasmPage); !ok {
			e.release(in)
			return nil, &abi.Failure{Kind: abi.FailureMemoryLimit, Message: "snapshot memory exceeds the engine's limit"}
		}
	}
	mem, ok := in.mem.Read(0, d.Size)
	if !ok {
		e.release(in)
		return nil, errors.New("snapshot: guest memory unavailable")
	}
	d.Apply(mem)
	return e.start(in, limits, host, d.Result)
}
