//go:build wasmtime

package wasmtime

// Guest calls go straight to wasmtime's C API through
// wasmtime_func_call_unchecked: wasmtime-go's Func.Call looks the function's
// type up, converts every value and allocates on each call, which made a
// call about 7 µs; the engine makes dozens per cell. The declarations below
// are this package's own, for the public C API of the wasmtime release that
// wasmtime-go v25.0.0 links (its static library provides the symbols).
// Signatures of the bound exports are checked once per engine against the
// module before any unchecked call (see exports.bind).

/*
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct { uint64_t store_id; size_t private_; } cm_func;       // wasmtime_func_t, wasmtime_memory_t
typedef struct { uint8_t kind; cm_func of; } cm_extern;                // wasmtime_extern_t
typedef union { int32_t i32; int64_t i64; double f64; uint8_t v128[16]; } cm_raw; // wasmtime_val_raw_t
typedef struct { size_t size; char *data; } cm_bytes;                 // wasm_byte_vec_t

void *wasmtime_func_call_unchecked(void *context, const cm_func *func, cm_raw *args_and_results, size_t len, void **trap);
bool wasmtime_trap_code(const void *trap, uint8_t *code);
void wasm_trap_message(const void *trap, cm_bytes *out);
void wasm_trap_delete(void *trap);
void wasmtime_error_message(const void *error, cm_bytes *out);
void wasmtime_error_delete(void *error);
void wasm_byte_vec_delete(cm_bytes *vec);
uint8_t *wasmtime_memory_data(const void *context, const cm_func *memory);
size_t wasmtime_memory_data_size(const void *context, const cm_func *memory);

typedef struct { size_t size; void **data; } cm_valtypes;            // wasm_valtype_vec_t
void *wasm_valtype_new(uint8_t kind);
void wasm_valtype_vec_new(cm_valtypes *out, size_t size, void *const data[]);
void *wasm_functype_new(cm_valtypes *params, cm_valtypes *results);
void wasm_functype_delete(void *type);
void wasmtime_func_new_unchecked(void *context, const void *type, void *callback, void *env,
		void (*finalizer)(void *), cm_func *ret);
void *wasmtime_caller_context(void *caller);

// cm_functype makes a function type from wasm_valkind_t lists of up to 8.
static void *cm_functype(const uint8_t *params, size_t np, const uint8_t *results, size_t nr) {
	void *p[8], *r[8];
	for (size_t i = 0; i < np && i < 8; i++) p[i] = wasm_valtype_new(params[i]);
	for (size_t i = 0; i < nr && i < 8; i++) r[i] = wasm_valtype_new(results[i]);
	cm_valtypes pv, rv;
	wasm_valtype_vec_new(&pv, np, p);
	wasm_valtype_vec_new(&rv, nr, r);
	return wasm_functype_new(&pv, &rv);
}

// cmHostCall is the Go side of every host function (hostcall.go).
extern void *cmHostCall(uintptr_t env, void *context, cm_raw *args_and_results, size_t len);

static void *cm_host_trampoline(void *env, void *caller, cm_raw *args, size_t len) {
	return cmHostCall((uintptr_t)env, wasmtime_caller_context(caller), args, len);
}

// cm_host_func makes a host function in a store; env says which instance
// and which import it is.
static void cm_host_func(void *context, const void *type, uintptr_t env, cm_func *ret) {
	wasmtime_func_new_unchecked(context, type, (void *)cm_host_trampoline, (void *)env, NULL, ret);
}

// cm_memory returns the base and size of a linear memory in one crossing.
static uint8_t *cm_memory(const void *context, const cm_func *memory, size_t *size) {
	*size = wasmtime_memory_data_size(context, memory);
	return wasmtime_memory_data(context, memory);
}

// cm_call calls func with args_and_results. On a trap or an error it returns
// 1, the trap code (255 when there is none) and the message's first cap bytes.
static int cm_call(void *context, const cm_func *func, cm_raw *args, size_t len,
		uint8_t *code, char *msg, size_t cap, size_t *msg_len) {
	void *trap = NULL;
	void *err = wasmtime_func_call_unchecked(context, func, args, len, &trap);
	if (err == NULL && trap == NULL) {
		return 0;
	}
	cm_bytes m = {0, NULL};
	*code = 255;
	if (trap != NULL) {
		if (!wasmtime_trap_code(trap, code)) {
			*code = 255;
		}
		wasm_trap_message(trap, &m);
		wasm_trap_delete(trap);
	} else {
		wasmtime_error_message(err, &m);
		wasmtime_error_delete(err);
	}
	size_t n = m.size < cap ? m.size : cap;
	if (n > 0) {
		memcpy(msg, m.data, n);
	}
	*msg_len = n;
	if (m.data != NULL) {
		wasm_byte_vec_delete(&m);
	}
	return 1;
}
*/
// #cgo noescape cm_memory
// #cgo nocallback cm_memory
import "C"

import (
	"errors"
	"strings"
	"unsafe"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// guestFunc is an exported guest function, ready for unchecked calls.
type guestFunc C.cm_func

// guestMemory is the guest's linear memory.
type guestMemory C.cm_func

// handle reads the C handle of an extern through the public AsExtern.
func handle[T interface{ AsExtern() E }, E any](x T, kind uint8) (C.cm_func, error) {
	ext := x.AsExtern()
	if unsafe.Sizeof(ext) != unsafe.Sizeof(C.cm_extern{}) {
		return C.cm_func{}, errors.New("wasmtime_extern_t has an unexpected layout")
	}
	e := (*C.cm_extern)(unsafe.Pointer(&ext))
	if uint8(e.kind) != kind {
		return C.cm_func{}, errors.New("export is of another kind")
	}
	return e.of, nil
}

func rawFunc(f *wt.Func) (guestFunc, error) {
	h, err := handle(f, 0) // WASMTIME_EXTERN_FUNC
	return guestFunc(h), err
}

func rawMemory(m *wt.Memory) (guestMemory, error) {
	h, err := handle(m, 3) // WASMTIME_EXTERN_MEMORY
	return guestMemory(h), err
}

// memory is the whole linear memory; it is invalidated by the next call into
// the guest, which may grow it.
func (in *instance) memory() []byte {
	var size C.size_t
	p := C.cm_memory(in.ctxp, (*C.cm_func)(&in.rawMem), &size)
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(size))
}

// newFuncType makes a C function type for a host function; delete it with
// deleteFuncType.
func newFuncType(params, results []wt.ValKind) unsafe.Pointer {
	kinds := func(ks []wt.ValKind) (*C.uint8_t, C.size_t) {
		b := make([]C.uint8_t, len(ks)+1)
		for i, k := range ks {
			b[i] = C.uint8_t(k) // wt.ValKind values are wasm_valkind_t
		}
		return &b[0], C.size_t(len(ks))
	}
	p, np := kinds(params)
	r, nr := kinds(results)
	return C.cm_functype(p, np, r, nr)
}

func deleteFuncType(t unsafe.Pointer) { C.wasm_functype_delete(t) }

// newHostFunc makes host function index of the engine in the instance's
// store. wasmtime-go's own host functions convert every value through cgo
// and made a host call cost several microseconds; these are unchecked and
// land in cmHostCall directly. The result is wrapped in a *wt.Func for
// wt.NewInstance, whose only field is the C handle; the wrapping is checked.
func (in *instance) newHostFunc(fnType unsafe.Pointer, index int) (*wt.Func, error) {
	var raw C.cm_func
	C.cm_host_func(in.ctxp, fnType, C.uintptr_t(uintptr(in.handle)<<hostIndexBits|uintptr(index)), &raw)
	f := new(wt.Func)
	if unsafe.Sizeof(*f) != unsafe.Sizeof(raw) {
		return nil, errors.New("wasmtime.Func has an unexpected layout")
	}
	*(*C.cm_func)(unsafe.Pointer(f)) = raw
	if back, err := handle(f, 0); err != nil || back != raw {
		return nil, errors.New("wasmtime.Func has an unexpected layout")
	}
	return f, nil
}

// contextOf is the wasmtime_context_t* of a store or a caller.
func contextOf(s wt.Storelike) unsafe.Pointer { return unsafe.Pointer(s.Context()) }

// callError is a trap or an error from a guest call.
type callError struct {
	code    wt.TrapCode
	hasCode bool
	msg     string
}

// trapNames are the wasmtime trap codes, in order.
var trapNames = []string{"stack overflow", "out of bounds memory access", "misaligned memory access",
	"undefined element: out of bounds table access", "uninitialized element", "indirect call type mismatch",
	"integer overflow", "integer divide by zero", "invalid conversion to integer", "unreachable executed",
	"interrupt", "all fuel consumed"}

// Is makes epoch interruption match [driver.ErrStopped].
func (e *callError) Is(target error) bool {
	return target == driver.ErrStopped && e.hasCode && e.code == wt.Interrupt
}

// Error names the trap; wasmtime's message is a backtrace of unnamed
// functions, so only its first line is kept for other errors.
func (e *callError) Error() string {
	if e.hasCode && int(e.code) < len(trapNames) {
		return "wasm trap: " + trapNames[e.code]
	}
	first, _, _ := strings.Cut(strings.TrimSpace(e.msg), "\n")
	return first
}

// rawArgs is the args-and-results buffer of a guest call.
type rawArgs [8]C.cm_raw

// callBuf is what a guest call passes to C.
type callBuf struct {
	args   rawArgs
	code   C.uint8_t
	msgLen C.size_t
	msg    [512]byte
}

// set stores a value encoded as for [driver.Module.Call]: the low bytes of a
// raw value are its i32, its whole first word its f64.
func (a *rawArgs) set(i int, v uint64) { *(*uint64)(unsafe.Pointer(&a[i])) = v }
func (a *rawArgs) i32(i int) uint32    { return *(*uint32)(unsafe.Pointer(&a[i])) }

// rawCall calls f with the arguments set in the buffer, leaving the results
// there. The whole buffer is offered, so a call never reads or writes past
// it whatever the function's arity (bind refuses arities above its size).
// A Go panic raised by a host function during the call is its error.
// The buffers are the instance's, on the heap: C holds them while host
// functions run Go code, and a goroutine stack may move meanwhile. Nested
// calls reuse them safely, since wasmtime reads the arguments on entry and
// writes the results on return.
func (in *instance) rawCall(f *guestFunc) error {
	c := &in.callBuf
	rc := C.cm_call(in.ctxp, (*C.cm_func)(f), &c.args[0], C.size_t(len(c.args)), &c.code,
		(*C.char)(unsafe.Pointer(&c.msg[0])), C.size_t(len(c.msg)), &c.msgLen)
	if err := in.hostErr; err != nil {
		in.hostErr = nil
		return err
	}
	if rc == 0 {
		return nil
	}
	return &callError{code: wt.TrapCode(c.code), hasCode: c.code != 255, msg: string(c.msg[:c.msgLen])}
}
