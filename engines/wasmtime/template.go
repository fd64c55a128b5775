//go:build wasmtime

package wasmtime

import (
	"bytes"
	"fmt"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// stageSize bounds the strings staged without a malloc.
const stageSize = 4096

// template is the VM image right after init, bridge and prelude: every pooled
// instance is reset to it and every snapshot is relative to it. The box
// pointers below live in the image, so they are valid in every instance. It is
// built exactly as the wazero engine builds its own, so the two are
// byte-identical and share snapshots.
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
// build is deterministic (fixed clock and random bytes).
func (e *Engine) buildTemplate() (in *instance, err error) {
	if in, err = e.instantiate(); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			t, ok := r.(trap)
			if !ok {
				panic(r)
			}
			in.close()
			in, err = nil, t.err
		}
	}()
	in.building = true
	t := &template{}
	e.tmpl = t
	in.call(&in.fn.initialize)
	if rc := in.call(&in.fn.init); rc != 0 {
		return nil, fmt.Errorf("qjs_init returned %d", int32(rc))
	}
	t.version = in.version()
	t.scratch = in.call(&in.fn.malloc, 64)
	t.stage = in.call(&in.fn.malloc, stageSize)
	t.messageKey = in.cstring("message")
	in.applyLimits(abi.Limits{MemoryBytes: defaultMemory, StackBytes: defaultStack}) // cells set their own
	in.call(&in.fn.setInterruptHandler, 1)
	in.call(&in.fn.setRejectionHandler, 1)
	t.undef = in.call(&in.fn.getUndefined)
	t.trueBox = in.call(&in.fn.getTrue)
	t.falseBox = in.call(&in.fn.getFalse)

	global := in.call(&in.fn.getGlobal)
	for _, name := range []string{abi.HostRequestName, abi.HostEmitName} {
		p := in.cstring(name)
		fn := in.call(&in.fn.newHostFunction, p, uint32(len(name)), 2)
		in.call(&in.fn.setPropString, global, p, fn)
		in.freeValue(fn)
		in.call(&in.fn.free, p)
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
		*f.box = in.call(&in.fn.getPropString, bridge, p)
		in.call(&in.fn.free, p)
	}
	in.freeValue(bridge)
	if e.opts.Prelude != "" {
		res, exc := in.eval(e.opts.Prelude, "prelude.js")
		if exc != 0 {
			return nil, fmt.Errorf("prelude: %s", in.failure(exc).Error())
		}
		in.freeValue(res)
	}
	in.call(&in.fn.runGC)
	in.building = false

	t.SP = in.getSP()
	t.Mem = bytes.Clone(in.memory())
	// The same references in the same order as the wazero engine's hash.
	t.Hash = image.Hash(t.Mem, []uint32{t.SP, t.settle, t.encode, t.describe, t.reseed, t.undef,
		t.trueBox, t.falseBox, t.scratch, t.stage, t.messageKey})
	return in, nil
}

// load puts the template into a freshly instantiated module.
func (t *template) load(in *instance) error {
	size := uint64(len(t.Mem))
	if cur := in.mem.DataSize(in.store); uint64(cur) < size {
		if _, err := in.mem.Grow(in.store, (size-uint64(cur))/image.WasmPage); err != nil {
			return fmt.Errorf("grow memory to the template size: %w", err)
		}
	}
	b := in.memory()
	copy(b, t.Mem)
	clear(b[size:])
	in.setSP(t.SP)
	return nil
}

// reset returns a used instance to template state (see [image.Template.Reset]);
// an instance grown too far is refused and dropped instead.
func (t *template) reset(in *instance) bool {
	b := in.memory()
	if uint64(len(b)) > uint64(len(t.Mem))+maxPooledGrowth {
		return false
	}
	t.Reset(b)
	return in.sp.Set(in.store, wt.ValI32(int32(t.SP))) == nil
}
