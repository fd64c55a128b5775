package driver

import "strings"

// Export names a guest export the driver calls; it indexes [Exports].
type Export int

const (
	fnInitialize Export = iota
	fnInit
	fnMalloc
	fnFree
	fnEval
	fnCall
	fnNewString
	fnNewNumber
	fnNewError
	fnNewHostFunction
	fnGetStringLen
	fnFreeCString
	fnFreeValue
	fnGetPropString
	fnSetPropString
	fnGetGlobal
	fnGetUndefined
	fnGetTrue
	fnGetFalse
	fnIsException
	fnGetException
	fnIsUncatchable
	fnThrow
	fnPromiseState
	fnPromiseResult
	fnExecutePendingJob
	fnSetMemoryLimit
	fnSetMaxStackSize
	fnSetInterruptHandler
	fnSetRejectionHandler
	fnRunGC
	fnVersion
	numExports
)

// NumExports is the length of [Exports], for runtimes' binding tables.
const NumExports = int(numExports)

// Signature is a wasm function type: parameter kinds, ">", result kinds,
// with i for i32, I for i64 and d for f64.
type Signature string

// Exports is the typed table of guest exports, bound once per instance by
// each runtime. A runtime that calls exports unchecked verifies the
// signatures against the module; each runtime's ABI test checks the table.
var Exports = [NumExports]struct {
	Name string
	Sig  Signature
}{
	fnInitialize:          {"_initialize", ">"},
	fnInit:                {"qjs_init", ">i"},
	fnMalloc:              {"wasm_malloc", "i>i"},
	fnFree:                {"wasm_free", "i>"},
	fnEval:                {"qjs_eval", "iiii>i"},
	fnCall:                {"qjs_call", "iiii>i"},
	fnNewString:           {"qjs_new_string", "ii>i"},
	fnNewNumber:           {"qjs_new_number", "d>i"},
	fnNewError:            {"qjs_new_error", ">i"},
	fnNewHostFunction:     {"qjs_new_host_function", "iii>i"},
	fnGetStringLen:        {"qjs_get_string_len", "ii>i"},
	fnFreeCString:         {"qjs_free_cstring", "i>"},
	fnFreeValue:           {"qjs_free_value", "i>"},
	fnGetPropString:       {"qjs_get_prop_string", "ii>i"},
	fnSetPropString:       {"qjs_set_prop_string", "iii>i"},
	fnGetGlobal:           {"qjs_get_global", ">i"},
	fnGetUndefined:        {"qjs_get_undefined", ">i"},
	fnGetTrue:             {"qjs_get_true", ">i"},
	fnGetFalse:            {"qjs_get_false", ">i"},
	fnIsException:         {"qjs_is_exception", "i>i"},
	fnGetException:        {"qjs_get_exception", ">i"},
	fnIsUncatchable:       {"qjs_is_uncatchable_error", "i>i"},
	fnThrow:               {"qjs_throw", "i>i"},
	fnPromiseState:        {"qjs_promise_state", "i>i"},
	fnPromiseResult:       {"qjs_promise_result", "i>i"},
	fnExecutePendingJob:   {"qjs_execute_pending_job", ">i"},
	fnSetMemoryLimit:      {"qjs_set_memory_limit", "i>"},
	fnSetMaxStackSize:     {"qjs_set_max_stack_size", "i>"},
	fnSetInterruptHandler: {"qjs_set_interrupt_handler", "i>"},
	fnSetRejectionHandler: {"qjs_set_promise_rejection_handler", "i>"},
	fnRunGC:               {"qjs_run_gc", ">"},
	fnVersion:             {"qjs_get_quickjs_version", ">i"},
}

// Params and Results split a signature at ">".
func (s Signature) Params() string {
	p, _, _ := strings.Cut(string(s), ">")
	return p
}

func (s Signature) Results() string {
	_, r, _ := strings.Cut(string(s), ">")
	return r
}
