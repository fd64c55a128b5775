//go:build wasmtime

package wasmtime

/*
#include <stddef.h>
#include <stdint.h>

typedef union { int32_t i32; int64_t i64; double f64; uint8_t v128[16]; } cm_raw; // wasmtime_val_raw_t
void *wasmtime_trap_new(const char *msg, size_t len);
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// hostIndexBits is how many low bits of a host function's env name the
// import; the rest is the instance's cgo.Handle.
const hostIndexBits = 4

// hostArgs are the raw arguments of a host call.
type hostArgs []C.cm_raw

func (a hostArgs) i32(i int) int32 { return *(*int32)(unsafe.Pointer(&a[i])) }

var hostTrapMessage = []byte("host function failed")

// cmHostCall runs host function env&15 for the instance of handle env>>4.
// While it runs, the instance reaches its store through the caller's context,
// as wasmtime requires of re-entrant calls. A panic (the trap of a nested
// guest call, or a bug) becomes a trap here and is re-raised by the guest
// call that is unwinding (see rawCall).
//
//export cmHostCall
func cmHostCall(env C.uintptr_t, context unsafe.Pointer, args *C.cm_raw, n C.size_t) (trapOut unsafe.Pointer) {
	in := cgo.Handle(uintptr(env) >> hostIndexBits).Value().(*instance)
	h := in.eng.hosts[uintptr(env)&(1<<hostIndexBits-1)]
	prev := in.ctxp
	in.ctxp = context
	defer func() {
		in.ctxp = prev
		if r := recover(); r != nil {
			if _, ok := r.(trap); !ok { // a host that panics retires its instance, as on wazero
				r = trap{fmt.Errorf("host function panicked: %v", r)}
			}
			if in.panicked == nil {
				in.panicked = r
			}
			trapOut = C.wasmtime_trap_new((*C.char)(unsafe.Pointer(&hostTrapMessage[0])), C.size_t(len(hostTrapMessage)))
		}
	}()
	a := hostArgs(unsafe.Slice(args, int(n)))
	r := h.fn(in, a)
	if len(h.results) > 0 {
		*(*int32)(unsafe.Pointer(&a[0])) = r
	}
	return nil
}
