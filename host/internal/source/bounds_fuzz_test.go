package source

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
)

// FuzzNestingBound builds a cell as prefix + open×n + mid + close×n, so that
// small inputs nest deep, and checks the bound: Check never panics and
// refuses only with invalid_input; when the bound refuses, esbuild never
// ran; what it accepts, esbuild handles within smallStack. Go may not grow a
// stack past smallStack here, so a cell that slips past the bound overflows
// it, and that is fatal: the fuzzer reports a crash and keeps the input.
func FuzzNestingBound(f *testing.F) {
	for _, s := range shapes {
		f.Add(s.prefix, s.open, s.mid, s.close, uint16(MaxNesting+1), s.ts)
		f.Add(s.prefix, s.open, s.mid, s.close, uint16(MaxNesting/2), !s.ts)
	}
	f.Add("", "(a) / [", "x", "] / 1", uint16(400), false)
	f.Add("// \u2028", "if (a)\n", "x", "", uint16(700), false)
	f.Add("", "}); [", "x", "]", uint16(300), true)
	f.Fuzz(func(t *testing.T, prefix, open, mid, close string, n uint16, ts bool) {
		if len(open)+len(close) > 64 || n > 4096 {
			return // deep enough; longer pieces only make slower runs
		}
		code := prefix + strings.Repeat(open, int(n)) + mid + strings.Repeat(close, int(n))
		old := debug.SetMaxStack(smallStack)
		defer debug.SetMaxStack(old)
		parses, transforms := parseCalls.Load(), transformCalls.Load()
		_, _, err := checkLocal(code, language(ts), nil)
		if err != nil && !errors.Is(err, abi.CodeInvalidInput) {
			t.Fatalf("untyped error %v", err)
		}
		var e *Error
		if errors.As(err, &e) && (e.Reason == ReasonSourceTooDeep || e.Reason == ReasonSourceTooLarge) {
			if parseCalls.Load() != parses || transformCalls.Load() != transforms {
				t.Fatal("esbuild ran on a cell the bound refused")
			}
			return
		}
		runEsbuild(code, ts) // whether or not Check needed it
	})
}
