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
	"runtime/cgo"
	"unsafe"

	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// hostIndexBits is how many low bits of a host function's env name the
// import; the rest is the instance's cgo.Handle.
const hostIndexBits = 4

var hostTrapMessage = []byte("host function failed")

// cmHostCall runs host function env&15 for the instance of handle env>>4.
// While it runs, the instance reaches its store through the caller's context,
// as wasmtime requires of re-entrant calls. A panic (the trap of a nested
// guest call, or a bug) cannot unwind through wasm frames: it becomes a trap
// here and its error is returned by the guest call that is unwinding (see
// rawCall).
//
//export cmHostCall
func cmHostCall(env C.uintptr_t, context unsafe.Pointer, args *C.cm_raw, n C.size_t) (trapOut unsafe.Pointer) {
	in := cgo.Handle(uintptr(env) >> hostIndexBits).Value().(*instance)
	i := int(uintptr(env) & (1<<hostIndexBits - 1))
	prev := in.ctxp
	in.ctxp = context
	defer func() {
		in.ctxp = prev
		if r := recover(); r != nil {
			if in.hostErr == nil {
				in.hostErr = driver.PanicError(r)
			}
			trapOut = C.wasmtime_trap_new((*C.char)(unsafe.Pointer(&hostTrapMessage[0])), C.size_t(len(hostTrapMessage)))
		}
	}()
	raw := unsafe.Slice(args, int(n))
	var stack [8]uint64
	for k := range min(len(raw), len(stack)) {
		stack[k] = *(*uint64)(unsafe.Pointer(&raw[k]))
	}
	r := in.drv.CallImport(i, stack[:min(len(raw), len(stack))])
	if in.hasResult[i] {
		*(*uint32)(unsafe.Pointer(&raw[0])) = r
	}
	return nil
}
