package source

import (
	"errors"
	"strings"
	"testing"
)

// TestStringJoinsBound tries the chains esbuild folds at a quadratic cost,
// in both languages, and the code that must stay untouched by the bound.
func TestStringJoinsBound(t *testing.T) {
	over := MaxStringJoins + 1
	for _, c := range []struct {
		name, code, lang string
		refused          bool
	}{
		{"template chain", strings.Repeat("`${a}`+", over) + "1;\n() => 1\n", JavaScript, true},
		{"string chain", "return " + strings.Repeat(`"a"+`, over) + `"a"`, JavaScript, true},
		{"string chain in TypeScript", "const s: string = " + strings.Repeat(`"a"+`, over) + `"a"; return s`, TypeScript, true},
		{"string chain behind a shell word", "whoami\n" + strings.Repeat(`"a"+`, over) + `"a"`, JavaScript, true},
		{"at the bound", "return " + strings.Repeat(`"a"+`, MaxStringJoins/2) + `"a"`, JavaScript, false},
		{"numbers are not strings", "return " + strings.Repeat("1+", 3*MaxStringJoins) + "1", JavaScript, false},
		{"plus in strings and comments", "// " + strings.Repeat(`"a"+`, over) + "\nreturn '" + strings.Repeat("+", over) + "'", JavaScript, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := checkLocal(c.code, c.lang, nil)
			var e *Error
			refused := errors.As(err, &e) && e.Reason == ReasonSourceTooComplex
			if refused != c.refused {
				t.Fatalf("refused = %v (%v), want %v", refused, err, c.refused)
			}
		})
	}
}
