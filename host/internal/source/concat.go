package source

import "fmt"

// MaxStringJoins bounds the `+` that join a string or template literal in
// one cell. esbuild folds a chain of literal additions into one string as it
// parses, at a cost quadratic in the chain: 7,000 of them in a 48 KB cell
// took 7 s and 3.5 GB, and a 250 KB one exhausted the process's memory,
// before any deadline applied. A thousand cost esbuild a few tens of MiB;
// real code that builds long text joins an array or writes one template.
const MaxStringJoins = 1000

// MsgStringJoins is the message of a cell past MaxStringJoins.
var MsgStringJoins = fmt.Sprintf("code mode source joins string literals with + more than %d times; "+
	"build long text with an array and join(), or write one template literal.", MaxStringJoins)

// ReasonSourceTooComplex is the reason of a cell past MaxStringJoins.
const ReasonSourceTooComplex Reason = "source_too_complex"

// stringJoins counts the `+` tokens next to a string or template literal, in
// every reading the lexer follows, stopping past MaxStringJoins. A cell that
// does not tokenize is counted as far as it does: esbuild stops there too.
func stringJoins(l lexing) int {
	n := countJoins(l.toks)
	for _, a := range l.alts {
		n = max(n, countJoins(a))
	}
	return n
}

func countJoins(toks []token) int {
	literal := func(t token) bool { return t.kind == tokString || t.kind == tokTemplate }
	n := 0
	for i, t := range toks {
		if t.kind != tokPunct || t.text != "+" {
			continue
		}
		if (i > 0 && literal(toks[i-1])) || (i+1 < len(toks) && literal(toks[i+1])) {
			if n++; n > MaxStringJoins {
				break
			}
		}
	}
	return n
}
