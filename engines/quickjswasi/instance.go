package quickjswasi

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/tetratelabs/wazero/api"
)

// instance is one instantiated quickjs.wasm module. It is driven by one
// goroutine at a time; host calls re-enter it on that goroutine.
type instance struct {
	eng  *Engine
	mod  api.Module
	mem  api.Memory
	sp   api.MutableGlobal
	fn   exports
	ctx  context.Context // carries the instance to host functions
	args [8]uint64       // the call stack for CallWithStack

	host        abi.Host
	interrupted abi.Interrupt // sticky once the host asked for a stop
	// outOfMemory records an out-of-memory error that rejected a promise
	// nobody handles, such as one of a chain of jobs: the cell has failed
	// even if its own promise never settles.
	outOfMemory bool
	building    bool // true while the template is built
	dead        bool // trapped or quarantined: never pooled again

	quarantined atomic.Bool  // set by the watchdog
	busySince   atomic.Int64 // unix nanos of the running call, 0 when idle
	deadline    atomic.Int64 // unix nanos the running call should end by, 0 for none
}

// trap is panicked by call when the guest traps; cells recover it.
type trap struct{ err error }

// call invokes a guest export with up to eight i32/i64 arguments.
func (in *instance) call(f api.Function, args ...uint64) uint64 {
	copy(in.args[:], args)
	if err := f.CallWithStack(in.ctx, in.args[:]); err != nil {
		in.dead = true
		panic(trap{err})
	}
	return in.args[0]
}

func (in *instance) call32(f api.Function, args ...uint64) uint32 { return uint32(in.call(f, args...)) }

func (in *instance) freeValue(box uint32) {
	if box != 0 {
		in.call(in.fn.freeValue, uint64(box))
	}
}

// bytes returns a view of guest memory; it is invalidated by the next call.
func (in *instance) bytes(ptr, n uint32) []byte {
	b, ok := in.mem.Read(ptr, n)
	if !ok {
		in.dead = true
		panic(trap{fmt.Errorf("guest pointer out of range: %#x+%d", ptr, n)})
	}
	return b
}

// cstring copies s into guest memory with a terminating NUL. Free it with
// wasm_free.
func (in *instance) cstring(s string) uint32 {
	p := in.call32(in.fn.malloc, uint64(len(s)+1))
	if p == 0 {
		panic(trap{errors.New("guest allocation failed")})
	}
	b := in.bytes(p, uint32(len(s)+1))
	copy(b, s)
	b[len(s)] = 0
	return p
}

// newString makes a guest string box. Short strings are staged in the
// template's scratch buffer instead of a malloc'd one.
func (in *instance) newString(s string) uint32 {
	t := in.eng.tmpl
	if len(s) <= stageSize {
		copy(in.bytes(t.stage, uint32(len(s))), s)
		return in.call32(in.fn.newString, uint64(t.stage), uint64(len(s)))
	}
	p := in.cstring(s)
	box := in.call32(in.fn.newString, uint64(p), uint64(len(s)))
	in.call(in.fn.free, uint64(p))
	return box
}

func (in *instance) newNumber(f float64) uint32 {
	return in.call32(in.fn.newNumber, math.Float64bits(f))
}

// goString reads a guest value as a Go string (ToString semantics).
func (in *instance) goString(box uint32) (string, bool) {
	scratch := in.eng.tmpl.scratch
	p := in.call32(in.fn.getStringLen, uint64(box), uint64(scratch))
	if p == 0 {
		return "", false
	}
	n := binary.LittleEndian.Uint32(in.bytes(scratch, 4))
	s := string(in.bytes(p, n))
	in.call(in.fn.freeCString, uint64(p))
	if !utf8.ValidString(s) {
		// QuickJS hands out WTF-8: a lone surrogate arrives as its 3-byte
		// encoding. The host only ever sees valid UTF-8, with U+FFFD there.
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s, true
}

// hostCall dispatches env.host_call by the function's stable name.
func (in *instance) hostCall(namePtr, nameLen, argc, argv uint32) uint32 {
	name := in.bytes(namePtr, nameLen)
	isRequest, isEmit := string(name) == abi.HostRequestName, string(name) == abi.HostEmitName
	if !isRequest && !isEmit {
		return in.throwError("unknown host function")
	}
	var arg [2]string
	for i := range min(argc, 2) {
		box := binary.LittleEndian.Uint32(in.bytes(argv+4*i, 4))
		if s, ok := in.goString(box); ok {
			arg[i] = s
		} else {
			return 0 // ToString threw; the exception is already pending
		}
	}
	if in.host == nil {
		return in.throwError("the host is unavailable")
	}
	if isRequest {
		t, err := in.host.Request(arg[0], arg[1])
		if err != nil {
			return in.throwError(err.Error())
		}
		return in.newNumber(float64(t))
	}
	kind := abi.OutputText
	if arg[0] == "1" {
		kind = abi.OutputJSON
	}
	if err := in.host.Emit(kind, arg[1]); err != nil {
		return in.throwError(err.Error())
	}
	return in.call32(in.fn.getUndefined)
}

// throwError raises a plain guest Error and returns the exception marker.
func (in *instance) throwError(msg string) uint32 {
	errBox := in.call32(in.fn.newError)
	msgBox := in.newString(msg)
	in.call(in.fn.setPropString, uint64(errBox), uint64(in.eng.tmpl.messageKey), uint64(msgBox))
	in.freeValue(msgBox)
	in.freeValue(in.call32(in.fn.throw, uint64(errBox)))
	in.freeValue(errBox)
	return 0
}

func (in *instance) pollInterrupt() bool {
	if in.interrupted == abi.InterruptNone && in.host != nil {
		in.interrupted = in.host.ShouldInterrupt()
	}
	return in.interrupted != abi.InterruptNone
}

// eval evaluates global code and returns the owned result box, or 0 and the
// owned exception box.
func (in *instance) eval(code, filename string) (result, exception uint32) {
	src := in.cstring(code)
	name := in.cstring(filename)
	res := in.call32(in.fn.eval, uint64(src), uint64(len(code)), uint64(name), 0)
	in.call(in.fn.free, uint64(src))
	in.call(in.fn.free, uint64(name))
	if in.call32(in.fn.isException, uint64(res)) != 0 {
		in.freeValue(res)
		return 0, in.call32(in.fn.getException)
	}
	return res, 0
}

// callFn calls a guest function with borrowed argument boxes and returns the
// owned result, or 0 and the owned exception.
func (in *instance) callFn(fn uint32, args ...uint32) (result, exception uint32) {
	argv := in.eng.tmpl.scratch + 8
	b := in.bytes(argv, uint32(4*len(args)))
	for i, a := range args {
		binary.LittleEndian.PutUint32(b[4*i:], a)
	}
	res := in.call32(in.fn.call, uint64(fn), uint64(in.eng.tmpl.undef), uint64(len(args)), uint64(argv))
	if in.call32(in.fn.isException, uint64(res)) != 0 {
		in.freeValue(res)
		return 0, in.call32(in.fn.getException)
	}
	return res, 0
}

// applyLimits sets the per-cell guest limits; they live in the image.
func (in *instance) applyLimits(l abi.Limits) {
	in.call(in.fn.setMemoryLimit, uint64(l.MemoryBytes))
	in.call(in.fn.setMaxStackSize, uint64(l.StackBytes))
}

// reseed gives Math.random a fresh state; every image shares the template's.
func (in *instance) reseed() {
	var boxes [4]uint32
	for i := range boxes {
		boxes[i] = in.newNumber(float64(int32(in.eng.seed())))
	}
	res, exc := in.callFn(in.eng.tmpl.reseed, boxes[:]...)
	in.freeValue(res)
	in.freeValue(exc)
	for _, b := range boxes {
		in.freeValue(b)
	}
}
