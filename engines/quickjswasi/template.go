package quickjswasi

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// stageSize bounds the strings staged without a malloc.
const stageSize = 4096

// template is the VM image right after init, bridge and prelude: every pooled
// instance is reset to it and every snapshot is relative to it. The box
// pointers below live in the image, so they are valid in every instance.
type template struct {
	image.Template // memory, stack pointer and hash; the snapshot format
	version        string
	settle         uint32
	encode         uint32
	describe       uint32
	reseed         uint32
	undef          uint32
	trueBox        uint32
	falseBox       uint32
	scratch        uint32 // 64 bytes for out-parameters and argv
	stage          uint32 // stageSize bytes for short strings passed in
	// messageKey is the C string "message".
	messageKey uint32
}

// buildTemplate initialises a fresh instance and captures the template. The
// build is deterministic (fixed clock and random bytes), so every process
// builds the same image and snapshots are portable between them.
func (e *Engine) buildTemplate(ctx context.Context) (in *instance, err error) {
	if in, err = e.instantiate(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			t, ok := r.(trap)
			if !ok {
				panic(r)
			}
			in.mod.Close(ctx)
			in, err = nil, t.err
		}
	}()
	in.building = true
	t := &template{}
	e.tmpl = t
	in.call(in.fn.initialize)
	if rc := in.call32(in.fn.init); rc != 0 {
		return nil, fmt.Errorf("qjs_init returned %d", int32(rc))
	}
	t.version = in.version()
	t.scratch = in.call32(in.fn.malloc, 64)
	t.stage = in.call32(in.fn.malloc, stageSize)
	t.messageKey = in.cstring("message")
	in.applyLimits(abi.Limits{MemoryBytes: defaultMemory, StackBytes: defaultStack}) // cells set their own
	in.call(in.fn.setInterruptHandler, 1)
	in.call(in.fn.setRejectionHandler, 1)
	t.undef = in.call32(in.fn.getUndefined)
	t.trueBox = in.call32(in.fn.getTrue)
	t.falseBox = in.call32(in.fn.getFalse)

	global := in.call32(in.fn.getGlobal)
	for _, name := range []string{abi.HostRequestName, abi.HostEmitName} {
		p := in.cstring(name)
		fn := in.call32(in.fn.newHostFunction, uint64(p), uint64(len(name)), 2)
		in.call(in.fn.setPropString, uint64(global), uint64(p), uint64(fn))
		in.freeValue(fn)
		in.call(in.fn.free, uint64(p))
	}
	in.freeValue(global)

	bridge, exc := in.eval(abi.BridgeJS, "bridge.js")
	if exc != 0 {
		return nil, fmt.Errorf("bridge: %s", in.failure(exc).Error())
	}
	for _, f := range []struct {
		name string
		box  *uint32
	}{{"settle", &t.settle}, {"encode", &t.encode}, {"describe", &t.describe}, {"reseed", &t.reseed}} {
		p := in.cstring(f.name)
		*f.box = in.call32(in.fn.getPropString, uint64(bridge), uint64(p))
		in.call(in.fn.free, uint64(p))
	}
	in.freeValue(bridge)
	if e.opts.Prelude != "" {
		res, exc := in.eval(e.opts.Prelude, "prelude.js")
		if exc != 0 {
			return nil, fmt.Errorf("prelude: %s", in.failure(exc).Error())
		}
		in.freeValue(res)
	}
	in.call(in.fn.runGC)
	in.building = false

	t.SP = uint32(in.sp.Get())
	size := in.mem.Size()
	t.Mem = bytes.Clone(in.bytes(0, size))
	t.Hash = image.Hash(t.Mem, []uint32{t.SP, t.settle, t.encode, t.describe, t.reseed, t.undef,
		t.trueBox, t.falseBox, t.scratch, t.stage, t.messageKey})
	return in, nil
}

// load puts the template into a freshly instantiated module.
func (t *template) load(in *instance) error {
	size := uint32(len(t.Mem))
	if cur := in.mem.Size(); cur < size {
		if _, ok := in.mem.Grow((size - cur) / wasmPage); !ok {
			return errors.New("cannot grow memory to the template size")
		}
	}
	b, _ := in.mem.Read(0, in.mem.Size())
	copy(b, t.Mem)
	clear(b[size:])
	in.sp.Set(uint64(t.SP))
	return nil
}

// reset returns a used instance to template state by copying back only the
// pages that differ; the stack below the template's stack pointer is dead
// between calls and skipped. Memory never shrinks, so pages past the template
// are zeroed; an instance grown too far is refused and dropped instead.
func (t *template) reset(in *instance) bool {
	size := in.mem.Size()
	if uint64(size) > uint64(len(t.Mem))+maxPooledGrowth {
		return false
	}
	b, ok := in.mem.Read(0, size)
	if !ok {
		return false
	}
	t.Reset(b)
	in.sp.Set(uint64(t.SP))
	return true
}
