package driver

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"unsafe"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/internal/cowmem"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// stageSize bounds the strings staged without a malloc.
const stageSize = 4096

// heapHeadroom is the free heap a template starts cells with: enough for a
// catalog of a few hundred tools. A cell that needs more still grows its
// instance a little further on every use, until the pool drops it. A bigger
// headroom costs every reset and snapshot a scan of its pages: 1 MiB made a
// trivial exec 50% slower.
const heapHeadroom = 256 << 10

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
	// cow is the image mapped into instances copy-on-write, nil where the
	// OS offers none: then resets and snapshots compare every page.
	cow *cowmem.Image
}

// buildTemplate initialises a fresh instance and captures the template. The
// build is deterministic (fixed clock and random bytes), so every process
// and every runtime builds the same image and snapshots are portable.
func (e *Engine) buildTemplate(ctx context.Context) (in *Instance, err error) {
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
	in.call(fnInitialize)
	if rc := in.call(fnInit); rc != 0 {
		return nil, fmt.Errorf("qjs_init returned %d", int32(rc))
	}
	t.version = in.version()
	t.scratch = in.call(fnMalloc, 64)
	t.stage = in.call(fnMalloc, stageSize)
	t.messageKey = in.cstring("message")
	in.applyLimits(abi.Limits{MemoryBytes: defaultMemory, StackBytes: defaultStack}) // cells set their own
	in.call(fnSetInterruptHandler, 1)
	in.call(fnSetRejectionHandler, 1)
	t.undef = in.call(fnGetUndefined)
	t.trueBox = in.call(fnGetTrue)
	t.falseBox = in.call(fnGetFalse)

	global := in.call(fnGetGlobal)
	for _, name := range []string{abi.HostRequestName, abi.HostEmitName} {
		p := in.cstring(name)
		fn := in.call(fnNewHostFunction, uint64(p), uint64(len(name)), 2)
		in.call(fnSetPropString, uint64(global), uint64(p), uint64(fn))
		in.freeValue(fn)
		in.call(fnFree, uint64(p))
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
		*f.box = in.call(fnGetPropString, uint64(bridge), uint64(p))
		in.call(fnFree, uint64(p))
	}
	in.freeValue(bridge)
	for _, sc := range abi.EnvScripts {
		res, exc := in.eval(sc.Source, sc.Name)
		if exc != 0 {
			return nil, fmt.Errorf("%s: %s", sc.Name, in.failure(exc).Error())
		}
		in.freeValue(res)
	}
	if e.cfg.Prelude != "" {
		res, exc := in.eval(e.cfg.Prelude, "prelude.js")
		if exc != 0 {
			return nil, fmt.Errorf("prelude: %s", in.failure(exc).Error())
		}
		in.freeValue(res)
	}
	in.call(fnRunGC)
	// Give malloc free space inside the image. A reset returns malloc's
	// state to the template's but not the memory's size, so a cell that
	// needs more than the image holds grows memory again past the pages
	// the last cell left: every such cell added a page, copied the whole
	// memory to do it, and after 8 MB the instance was dropped.
	in.call(fnFree, uint64(in.call(fnMalloc, heapHeadroom)))
	in.building = false

	t.SP = in.mod.StackPointer()
	t.Mem = bytes.Clone(in.mod.Memory())
	t.Hash = image.Hash(t.Mem, t.metaValues())
	return in, nil
}

// load puts the template into a freshly instantiated module: mapped
// copy-on-write where it can be, copied otherwise.
func (t *template) load(in *Instance) error {
	size := uint32(len(t.Mem))
	if cur := uint32(len(in.mod.Memory())); cur < size {
		if err := in.mod.Grow((size - cur) / image.WasmPage); err != nil {
			return fmt.Errorf("grow memory to the template size: %w", err)
		}
	}
	if !t.mapInto(in) {
		b := in.mod.Memory()
		copy(b, t.Mem)
		clear(b[size:])
	}
	return in.mod.SetStackPointer(t.SP)
}

// mapInto maps the template over in's memory copy-on-write, and reports
// whether it did. Memory must hold the template; past it, it is zeroed.
func (t *template) mapInto(in *Instance) bool {
	if m, ok := in.mod.(Mappable); t.cow == nil || !ok || !m.Mappable() {
		return false
	}
	mem := in.mod.Memory()
	if err := t.cow.Map(mem); err != nil {
		in.eng.cfg.Logger.Warn("template not mapped copy-on-write; resets compare every page"+in.eng.cfg.on(), "err", err)
		return false
	}
	in.mapped = address(mem)
	return true
}

func address(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// dirty is every page of mem that may differ from the template: those the
// kernel saw written when the template is mapped, else all of them.
func (t *template) dirty(in *Instance, mem []byte) iter.Seq[int] {
	if in.mapped != 0 && in.mapped == address(mem) {
		var err error
		in.written, err = cowmem.Written(mem, int(t.SP)&^(cowmem.PageSize-1), in.written[:0], &in.pagemap)
		if err == nil {
			return image.Pages(in.written)
		}
		in.eng.cfg.Logger.Warn("page map unreadable; resets compare every page"+in.eng.cfg.on(), "err", err)
	}
	in.mapped = 0 // moved, or the page map failed: never trust it again
	return t.All(mem)
}

// reset returns a used instance to template state (see [image.Template.Reset]).
// Memory never shrinks, so an instance grown too far is refused and dropped
// instead.
func (t *template) reset(in *Instance) bool {
	b := in.mod.Memory()
	if uint64(len(b)) > uint64(len(t.Mem))+maxPooledGrowth {
		return false
	}
	t.ResetPages(b, t.dirty(in, b))
	return in.mod.SetStackPointer(t.SP) == nil
}
