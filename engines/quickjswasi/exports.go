package quickjswasi

import (
	"fmt"
	"reflect"

	"github.com/tetratelabs/wazero/api"
)

// exports is the typed table of guest exports the engine uses, bound once per
// instance. Tags name the wasm export; exports_test.go checks them against the
// pinned module.
type exports struct {
	initialize          api.Function `wasm:"_initialize"`
	init                api.Function `wasm:"qjs_init"`
	malloc              api.Function `wasm:"wasm_malloc"`
	free                api.Function `wasm:"wasm_free"`
	eval                api.Function `wasm:"qjs_eval"`
	call                api.Function `wasm:"qjs_call"`
	newString           api.Function `wasm:"qjs_new_string"`
	newNumber           api.Function `wasm:"qjs_new_number"`
	newError            api.Function `wasm:"qjs_new_error"`
	newHostFunction     api.Function `wasm:"qjs_new_host_function"`
	getStringLen        api.Function `wasm:"qjs_get_string_len"`
	freeCString         api.Function `wasm:"qjs_free_cstring"`
	freeValue           api.Function `wasm:"qjs_free_value"`
	getPropString       api.Function `wasm:"qjs_get_prop_string"`
	setPropString       api.Function `wasm:"qjs_set_prop_string"`
	getGlobal           api.Function `wasm:"qjs_get_global"`
	getUndefined        api.Function `wasm:"qjs_get_undefined"`
	getTrue             api.Function `wasm:"qjs_get_true"`
	getFalse            api.Function `wasm:"qjs_get_false"`
	isException         api.Function `wasm:"qjs_is_exception"`
	getException        api.Function `wasm:"qjs_get_exception"`
	isUncatchable       api.Function `wasm:"qjs_is_uncatchable_error"`
	throw               api.Function `wasm:"qjs_throw"`
	promiseState        api.Function `wasm:"qjs_promise_state"`
	promiseResult       api.Function `wasm:"qjs_promise_result"`
	executePendingJob   api.Function `wasm:"qjs_execute_pending_job"`
	setMemoryLimit      api.Function `wasm:"qjs_set_memory_limit"`
	setMaxStackSize     api.Function `wasm:"qjs_set_max_stack_size"`
	setInterruptHandler api.Function `wasm:"qjs_set_interrupt_handler"`
	setRejectionHandler api.Function `wasm:"qjs_set_promise_rejection_handler"`
	runGC               api.Function `wasm:"qjs_run_gc"`
	version             api.Function `wasm:"qjs_get_quickjs_version"`
}

// bind fills the table from a module instance.
func (e *exports) bind(mod api.Module) error {
	v := reflect.ValueOf(e).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name := t.Field(i).Tag.Get("wasm")
		fn := mod.ExportedFunction(name)
		if fn == nil {
			return fmt.Errorf("quickjs.wasm lacks export %s", name)
		}
		// The fields are unexported, so set them through an addressable pointer.
		reflect.NewAt(t.Field(i).Type, v.Field(i).Addr().UnsafePointer()).Elem().Set(reflect.ValueOf(fn))
	}
	return nil
}
