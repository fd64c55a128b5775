//go:build wasmtime

package wasmtime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/cgo"
	"strings"
	"unicode/utf8"
	"unsafe"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/seed11a79d2d/codemode/abi"
)

// instance is one quickjs.wasm instance in a store of its own, so its memory
// is freed with it and the store limiter bounds it alone. It is driven by one
// goroutine at a time; host calls re-enter it on that goroutine.
type instance struct {
	eng   *Engine
	store *wt.Store
	mem   *wt.Memory
	// rawMem is mem for direct access (see call.go).
	rawMem guestMemory
	sp     *wt.Global
	fn     exports
	// ctxp is how guest calls reach the store: its wasmtime_context_t, or
	// the caller's while a host function runs.
	ctxp    unsafe.Pointer
	handle  cgo.Handle // names the instance to host functions
	callBuf callBuf
	// panicked is a panic raised in a host function, re-raised by the guest
	// call that ran it.
	panicked any

	host        abi.Host
	interrupted abi.Interrupt // sticky once the host asked for a stop
	// outOfMemory records an out-of-memory error that rejected a promise
	// nobody handles: the cell has failed even if its own promise never
	// settles.
	outOfMemory bool
	building    bool // true while the template is built
	dead        bool // trapped or stopped: never pooled again
}

// trap is panicked by call when the guest traps; cells recover it.
type trap struct{ err error }

// call invokes a guest export with i32 arguments and returns its i32 result
// (0 when it has none). A trap retires the instance and panics; cells recover.
func (in *instance) call(f *guestFunc, args ...uint32) uint32 {
	a := &in.callBuf.args
	for i, v := range args {
		a.setI32(i, v)
	}
	return in.invoke(f)
}

func (in *instance) invoke(f *guestFunc) uint32 {
	if err := in.rawCall(f); err != nil {
		in.dead = true
		panic(trap{err})
	}
	return in.callBuf.args.i32(0)
}

func (in *instance) freeValue(box uint32) {
	if box != 0 {
		in.call(&in.fn.freeValue, box)
	}
}

// view returns a view of guest memory, or false when out of range. It is
// invalidated by the next call into the guest.
func (in *instance) view(ptr, n uint32) ([]byte, bool) {
	data := in.memory()
	if uint64(ptr)+uint64(n) > uint64(len(data)) {
		return nil, false
	}
	return data[ptr : ptr+n : ptr+n], true
}

// bytes is view for pointers the guest handed out: out of range is a trap.
func (in *instance) bytes(ptr, n uint32) []byte {
	b, ok := in.view(ptr, n)
	if !ok {
		in.dead = true
		panic(trap{fmt.Errorf("guest pointer out of range: %#x+%d", ptr, n)})
	}
	return b
}

func (in *instance) getSP() uint32 { return uint32(in.sp.Get(in.store).I32()) }

func (in *instance) setSP(v uint32) {
	if err := in.sp.Set(in.store, wt.ValI32(int32(v))); err != nil {
		in.dead = true
		panic(trap{err})
	}
}

// cstring copies s into guest memory with a terminating NUL. Free it with
// wasm_free.
func (in *instance) cstring(s string) uint32 {
	p := in.call(&in.fn.malloc, uint32(len(s)+1))
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
		return in.call(&in.fn.newString, t.stage, uint32(len(s)))
	}
	p := in.cstring(s)
	box := in.call(&in.fn.newString, p, uint32(len(s)))
	in.call(&in.fn.free, p)
	return box
}

func (in *instance) newNumber(f float64) uint32 {
	in.callBuf.args.setF64(0, f)
	return in.invoke(&in.fn.newNumber)
}

// goString reads a guest value as a Go string (ToString semantics).
func (in *instance) goString(box uint32) (string, bool) {
	scratch := in.eng.tmpl.scratch
	p := in.call(&in.fn.getStringLen, box, scratch)
	if p == 0 {
		return "", false
	}
	n := binary.LittleEndian.Uint32(in.bytes(scratch, 4))
	s := string(in.bytes(p, n))
	in.call(&in.fn.freeCString, p)
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
	return in.call(&in.fn.getUndefined)
}

// throwError raises a plain guest Error and returns the exception marker.
func (in *instance) throwError(msg string) uint32 {
	errBox := in.call(&in.fn.newError)
	msgBox := in.newString(msg)
	in.call(&in.fn.setPropString, errBox, in.eng.tmpl.messageKey, msgBox)
	in.freeValue(msgBox)
	in.freeValue(in.call(&in.fn.throw, errBox))
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
	res := in.call(&in.fn.eval, src, uint32(len(code)), name, 0)
	in.call(&in.fn.free, src)
	in.call(&in.fn.free, name)
	if in.call(&in.fn.isException, res) != 0 {
		in.freeValue(res)
		return 0, in.call(&in.fn.getException)
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
	res := in.call(&in.fn.call, fn, in.eng.tmpl.undef, uint32(len(args)), argv)
	if in.call(&in.fn.isException, res) != 0 {
		in.freeValue(res)
		return 0, in.call(&in.fn.getException)
	}
	return res, 0
}

// applyLimits sets the per-cell guest limits; they live in the image.
func (in *instance) applyLimits(l abi.Limits) {
	in.call(&in.fn.setMemoryLimit, l.MemoryBytes)
	in.call(&in.fn.setMaxStackSize, l.StackBytes)
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

// version reads the QuickJS-NG version string.
func (in *instance) version() string {
	p := in.call(&in.fn.version)
	b, _ := in.view(p, 64)
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// close releases the instance's store and memory.
func (in *instance) close() {
	in.store.Close()
	in.handle.Delete()
}
