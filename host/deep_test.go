package host

import (
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
)

// TestTooDeepToEncode: a value or json() item nested past encoding/json's
// depth limit is a clear failure, not a silent null or a result that cannot
// be written.
func TestTooDeepToEncode(t *testing.T) {
	rt := newRuntime(t, `{"enabled": true, "maxOutputBytes": 1048576}`, newGate().tool())
	run := prepare(t, rt, RunOptions{})
	const deep = `let a = []; for (let i = 0; i < 10001; i++) a = [a];`
	if r := exec(t, run, deep+` return a`); r.Status != StatusFailed || r.Code != abi.CodeOutputLimitExceeded || r.Error != msgTooDeep {
		t.Fatalf("value: %+v", r)
	}
	// The guest may catch the error json() throws; the run fails anyway,
	// as for an output flood.
	if r := exec(t, run, deep+` try { json(a) } catch (e) { if (e.message !== `+"`"+msgTooDeep+"`"+`) return e.message }; return 1`); r.Code != abi.CodeOutputLimitExceeded || r.Error != msgTooDeep || len(r.Output) != 0 {
		t.Fatalf("json() caught: %+v", r)
	}
	if r := exec(t, run, deep+` json(a); return 1`); r.Code != abi.CodeOutputLimitExceeded || r.Error != msgTooDeep {
		t.Fatalf("json() uncaught: %+v", r)
	}
	if r := exec(t, run, `let a = []; for (let i = 0; i < 9000; i++) a = [a]; json(a); return 1`); string(r.Value) != "1" || len(r.Output) != 1 {
		t.Fatalf("9,000 deep: %s %s", r.Status, r.Error)
	}
}
