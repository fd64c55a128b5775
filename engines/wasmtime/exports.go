//go:build wasmtime

package wasmtime

import (
	"fmt"
	"reflect"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
)

// exports is the typed table of guest exports the engine uses, bound once per
// instance; it lists the same exports as the wazero engine's table. Tags name
// the wasm export and its signature: parameter kinds, ">", result kinds, with
// i for i32 and d for f64. Calls into them are unchecked (see call.go), so
// the engine checks every signature against the module once, when it starts.
type exports struct {
	initialize          guestFunc `wasm:"_initialize" sig:">"`
	init                guestFunc `wasm:"qjs_init" sig:">i"`
	malloc              guestFunc `wasm:"wasm_malloc" sig:"i>i"`
	free                guestFunc `wasm:"wasm_free" sig:"i>"`
	eval                guestFunc `wasm:"qjs_eval" sig:"iiii>i"`
	call                guestFunc `wasm:"qjs_call" sig:"iiii>i"`
	newString           guestFunc `wasm:"qjs_new_string" sig:"ii>i"`
	newNumber           guestFunc `wasm:"qjs_new_number" sig:"d>i"`
	newError            guestFunc `wasm:"qjs_new_error" sig:">i"`
	newHostFunction     guestFunc `wasm:"qjs_new_host_function" sig:"iii>i"`
	getStringLen        guestFunc `wasm:"qjs_get_string_len" sig:"ii>i"`
	freeCString         guestFunc `wasm:"qjs_free_cstring" sig:"i>"`
	freeValue           guestFunc `wasm:"qjs_free_value" sig:"i>"`
	getPropString       guestFunc `wasm:"qjs_get_prop_string" sig:"ii>i"`
	setPropString       guestFunc `wasm:"qjs_set_prop_string" sig:"iii>i"`
	getGlobal           guestFunc `wasm:"qjs_get_global" sig:">i"`
	getUndefined        guestFunc `wasm:"qjs_get_undefined" sig:">i"`
	getTrue             guestFunc `wasm:"qjs_get_true" sig:">i"`
	getFalse            guestFunc `wasm:"qjs_get_false" sig:">i"`
	isException         guestFunc `wasm:"qjs_is_exception" sig:"i>i"`
	getException        guestFunc `wasm:"qjs_get_exception" sig:">i"`
	isUncatchable       guestFunc `wasm:"qjs_is_uncatchable_error" sig:"i>i"`
	throw               guestFunc `wasm:"qjs_throw" sig:"i>i"`
	promiseState        guestFunc `wasm:"qjs_promise_state" sig:"i>i"`
	promiseResult       guestFunc `wasm:"qjs_promise_result" sig:"i>i"`
	executePendingJob   guestFunc `wasm:"qjs_execute_pending_job" sig:">i"`
	setMemoryLimit      guestFunc `wasm:"qjs_set_memory_limit" sig:"i>"`
	setMaxStackSize     guestFunc `wasm:"qjs_set_max_stack_size" sig:"i>"`
	setInterruptHandler guestFunc `wasm:"qjs_set_interrupt_handler" sig:"i>"`
	setRejectionHandler guestFunc `wasm:"qjs_set_promise_rejection_handler" sig:"i>"`
	runGC               guestFunc `wasm:"qjs_run_gc" sig:">"`
	version             guestFunc `wasm:"qjs_get_quickjs_version" sig:">i"`
}

// bind fills the table from a module instance; check also compares every
// export's signature with its tag.
func (e *exports) bind(store wt.Storelike, inst *wt.Instance, check bool) error {
	v := reflect.ValueOf(e).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name := t.Field(i).Tag.Get("wasm")
		fn := inst.GetFunc(store, name)
		if fn == nil {
			return fmt.Errorf("quickjs.wasm lacks export %s", name)
		}
		if check {
			if got, want := signature(fn.Type(store)), t.Field(i).Tag.Get("sig"); got != want {
				return fmt.Errorf("quickjs.wasm export %s has signature %s, want %s", name, got, want)
			}
		}
		raw, err := rawFunc(fn)
		if err != nil {
			return fmt.Errorf("export %s: %w", name, err)
		}
		// The fields are unexported, so set them through an addressable pointer.
		reflect.NewAt(t.Field(i).Type, v.Field(i).Addr().UnsafePointer()).Elem().Set(reflect.ValueOf(raw))
	}
	return nil
}

// signature renders a function type in the tag notation; kinds other than
// i32 and f64, or more values than a call buffer holds, render as "?".
func signature(ty *wt.FuncType) string {
	kinds := func(vs []*wt.ValType) string {
		if len(vs) > len(rawArgs{}) {
			return "?"
		}
		s := ""
		for _, v := range vs {
			switch v.Kind() {
			case wt.KindI32:
				s += "i"
			case wt.KindF64:
				s += "d"
			default:
				s += "?"
			}
		}
		return s
	}
	return kinds(ty.Params()) + ">" + kinds(ty.Results())
}
