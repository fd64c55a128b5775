//go:build wasmtime

package wasmtime

import (
	"fmt"
	"reflect"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
)

// exports is the typed table of guest exports the engine uses, bound once per
// instance. Tags name the wasm export; exports_test.go checks them against the
// pinned module. It lists the same exports as the wazero engine's table.
type exports struct {
	initialize          *wt.Func `wasm:"_initialize"`
	init                *wt.Func `wasm:"qjs_init"`
	malloc              *wt.Func `wasm:"wasm_malloc"`
	free                *wt.Func `wasm:"wasm_free"`
	eval                *wt.Func `wasm:"qjs_eval"`
	call                *wt.Func `wasm:"qjs_call"`
	newString           *wt.Func `wasm:"qjs_new_string"`
	newNumber           *wt.Func `wasm:"qjs_new_number"`
	newError            *wt.Func `wasm:"qjs_new_error"`
	newHostFunction     *wt.Func `wasm:"qjs_new_host_function"`
	getStringLen        *wt.Func `wasm:"qjs_get_string_len"`
	freeCString         *wt.Func `wasm:"qjs_free_cstring"`
	freeValue           *wt.Func `wasm:"qjs_free_value"`
	getPropString       *wt.Func `wasm:"qjs_get_prop_string"`
	setPropString       *wt.Func `wasm:"qjs_set_prop_string"`
	getGlobal           *wt.Func `wasm:"qjs_get_global"`
	getUndefined        *wt.Func `wasm:"qjs_get_undefined"`
	getTrue             *wt.Func `wasm:"qjs_get_true"`
	getFalse            *wt.Func `wasm:"qjs_get_false"`
	isException         *wt.Func `wasm:"qjs_is_exception"`
	getException        *wt.Func `wasm:"qjs_get_exception"`
	isUncatchable       *wt.Func `wasm:"qjs_is_uncatchable_error"`
	throw               *wt.Func `wasm:"qjs_throw"`
	promiseState        *wt.Func `wasm:"qjs_promise_state"`
	promiseResult       *wt.Func `wasm:"qjs_promise_result"`
	executePendingJob   *wt.Func `wasm:"qjs_execute_pending_job"`
	setMemoryLimit      *wt.Func `wasm:"qjs_set_memory_limit"`
	setMaxStackSize     *wt.Func `wasm:"qjs_set_max_stack_size"`
	setInterruptHandler *wt.Func `wasm:"qjs_set_interrupt_handler"`
	runGC               *wt.Func `wasm:"qjs_run_gc"`
	version             *wt.Func `wasm:"qjs_get_quickjs_version"`
}

// bind fills the table from a module instance.
func (e *exports) bind(store wt.Storelike, inst *wt.Instance) error {
	v := reflect.ValueOf(e).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name := t.Field(i).Tag.Get("wasm")
		fn := inst.GetFunc(store, name)
		if fn == nil {
			return fmt.Errorf("quickjs.wasm lacks export %s", name)
		}
		// The fields are unexported, so set them through an addressable pointer.
		reflect.NewAt(t.Field(i).Type, v.Field(i).Addr().UnsafePointer()).Elem().Set(reflect.ValueOf(fn))
	}
	return nil
}
