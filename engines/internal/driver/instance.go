package driver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/seed11a79d2d/codemode/abi"
)

// Instance is the driver's side of one [Module]: the state host functions
// and cells share. It is driven by one goroutine at a time.
type Instance struct {
	eng     *Engine
	mod     Module
	stopper Stopper   // mod, when its runtime stops calls itself
	stack   [8]uint64 // arguments and results of guest calls

	host        abi.Host
	interrupted abi.Interrupt // sticky once the host asked for a stop
	// outOfMemory records an out-of-memory error that rejected a promise
	// nobody handles, such as one of a chain of jobs: the cell has failed
	// even if its own promise never settles.
	outOfMemory bool
	building    bool // true while the template is built
	dead        bool // trapped or stopped: never pooled again
	// mapped is the address of linear memory when the template was mapped
	// over it copy-on-write, 0 when it was not (see [Mappable]).
	mapped  uintptr
	written []int32 // scratch for the written pages
	pagemap []byte  // scratch for reading them
	// stopAt is when the running operation is stopped for good (unix
	// nanos, 0 for never): its deadline plus the grace period.
	stopAt int64
}

// trap is panicked by call when the guest traps; cells recover it. Unwinding
// by panic keeps the dozens of calls per operation free of error checks.
type trap struct{ err error }

// A trap is an error, so that a runtime recovering it at an outer host
// boundary (a stop inside a guest call a host function made) keeps the
// cause, ErrStopped included.
func (t trap) Error() string { return t.err.Error() }
func (t trap) Unwrap() error { return t.err }

// PanicError is what a guest call returns when a host function it ran
// panicked, for runtimes that recover such panics at the host boundary (Go
// cannot unwind through their wasm frames): a nested call's trap keeps its
// error, anything else is a host bug that retires the instance.
func PanicError(r any) error {
	if t, ok := r.(trap); ok {
		return t.err
	}
	if err, ok := r.(error); ok && errors.Is(err, ErrStopped) {
		return err
	}
	return fmt.Errorf("host function panicked: %v", r)
}

// call invokes a guest export with up to eight arguments (see [Module.Call]).
func (in *Instance) call(fn Export, args ...uint64) uint32 {
	copy(in.stack[:], args)
	if err := in.mod.Call(fn, in.stack[:]); err != nil {
		in.dead = true
		panic(trap{err})
	}
	return uint32(in.stack[0])
}

func (in *Instance) freeValue(box uint32) {
	if box != 0 {
		in.call(fnFreeValue, uint64(box))
	}
}

// view returns a view of guest memory, or false when out of range. It is
// invalidated by the next call into the guest.
func (in *Instance) view(ptr, n uint32) ([]byte, bool) {
	data := in.mod.Memory()
	if uint64(ptr)+uint64(n) > uint64(len(data)) {
		return nil, false
	}
	return data[ptr : ptr+n : ptr+n], true
}

// bytes is view for pointers the guest handed out: out of range is a trap.
func (in *Instance) bytes(ptr, n uint32) []byte {
	b, ok := in.view(ptr, n)
	if !ok {
		in.dead = true
		panic(trap{fmt.Errorf("guest pointer out of range: %#x+%d", ptr, n)})
	}
	return b
}

// cstring copies s into guest memory with a terminating NUL. Free it with
// wasm_free.
func (in *Instance) cstring(s string) uint32 {
	p := in.call(fnMalloc, uint64(len(s)+1))
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
func (in *Instance) newString(s string) uint32 {
	t := in.eng.tmpl
	if len(s) <= stageSize {
		copy(in.bytes(t.stage, uint32(len(s))), s)
		return in.call(fnNewString, uint64(t.stage), uint64(len(s)))
	}
	p := in.cstring(s)
	box := in.call(fnNewString, uint64(p), uint64(len(s)))
	in.call(fnFree, uint64(p))
	return box
}

func (in *Instance) newNumber(f float64) uint32 {
	return in.call(fnNewNumber, math.Float64bits(f))
}

// goString reads a guest value as a Go string (ToString semantics).
func (in *Instance) goString(box uint32) (string, bool) {
	scratch := in.eng.tmpl.scratch
	p := in.call(fnGetStringLen, uint64(box), uint64(scratch))
	if p == 0 {
		return "", false
	}
	n := binary.LittleEndian.Uint32(in.bytes(scratch, 4))
	s := string(in.bytes(p, n))
	in.call(fnFreeCString, uint64(p))
	if !utf8.ValidString(s) {
		// QuickJS hands out WTF-8: a lone surrogate arrives as its 3-byte
		// encoding. The host only ever sees valid UTF-8, with U+FFFD there.
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s, true
}

// throwError raises a plain guest Error and returns the exception marker.
func (in *Instance) throwError(msg string) uint32 {
	errBox := in.call(fnNewError)
	msgBox := in.newString(msg)
	in.call(fnSetPropString, uint64(errBox), uint64(in.eng.tmpl.messageKey), uint64(msgBox))
	in.freeValue(msgBox)
	in.freeValue(in.call(fnThrow, uint64(errBox)))
	in.freeValue(errBox)
	return 0
}

// eval evaluates global code and returns the owned result box, or 0 and the
// owned exception box.
func (in *Instance) eval(code, filename string) (result, exception uint32) {
	src := in.cstring(code)
	name := in.cstring(filename)
	res := in.call(fnEval, uint64(src), uint64(len(code)), uint64(name), 0)
	in.call(fnFree, uint64(src))
	in.call(fnFree, uint64(name))
	if in.call(fnIsException, uint64(res)) != 0 {
		in.freeValue(res)
		return 0, in.call(fnGetException)
	}
	return res, 0
}

// callFn calls a guest function with borrowed argument boxes and returns the
// owned result, or 0 and the owned exception.
func (in *Instance) callFn(fn uint32, args ...uint32) (result, exception uint32) {
	argv := in.eng.tmpl.scratch + 8
	b := in.bytes(argv, uint32(4*len(args)))
	for i, a := range args {
		binary.LittleEndian.PutUint32(b[4*i:], a)
	}
	res := in.call(fnCall, uint64(fn), uint64(in.eng.tmpl.undef), uint64(len(args)), uint64(argv))
	if in.call(fnIsException, uint64(res)) != 0 {
		in.freeValue(res)
		return 0, in.call(fnGetException)
	}
	return res, 0
}

// applyLimits sets the per-cell guest limits; they live in the image.
func (in *Instance) applyLimits(l abi.Limits) {
	in.call(fnSetMemoryLimit, uint64(l.MemoryBytes))
	in.call(fnSetMaxStackSize, uint64(l.StackBytes))
}

// reseed gives Math.random and crypto a fresh state; every image shares the
// template's.
func (in *Instance) reseed() {
	var boxes [abi.ReseedWords]uint32
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
func (in *Instance) version() string {
	p := in.call(fnVersion)
	b, _ := in.view(p, 64)
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
