package source

import (
	"fmt"
	"strings"
)

// Bounds on a cell's source, checked before any parser sees it: esbuild,
// which the shell check and the TypeScript transform run on the host,
// recurses once per level of nesting with no limit of its own, in a
// goroutine of its own, and a Go stack overflow kills the process (it
// cannot be recovered). The engine's parser runs in wasm under the QuickJS
// stack limit, but the same bounds apply to every cell, so that a cell's
// fate does not depend on whether its first word looks like a command.
//
// Measured with esbuild v0.28.2 (TestEsbuildNestingLimits says how): with
// Go's default maximum stack (1e9 bytes, so 512 MiB in use at most, since
// stacks double) esbuild overflows at about 164,000 nested brackets, objects,
// prefix operators, conditionals or member links, 233,000 parentheses,
// 129,000 assignments or `**`, 82,000 arrow functions with block bodies, and
// 840,000 nested destructuring brackets: 170 KB of `!` is enough.
// At MaxNesting esbuild needs at most 2-4 MiB of stack
// (TestBoundKeepsEsbuildStackSmall runs every shape in 8 MiB), two orders of
// magnitude below the limit. The bound also caps costs that grow faster
// than the nesting: esbuild's renamer is about cubic in the nesting of
// same-named bindings (x=>x=>x=>: 0.4 s at 400 levels, 4.6 s at 1000),
// nested blocks take quadratic memory (3 GB at 16,000 levels), and comma
// operators quadratic time (10 s for 20,000). Real cells nest a few dozen
// levels; 200 levels of brackets, callbacks or if/else still pass.
//
// MaxSourceBytes bounds what grows with size rather than nesting: esbuild's
// work on flat code, which is superlinear for some shapes (many shadowed
// names, many duplicate declarations, long string sums), and the lexer's.
// Model-written cells are a few kilobytes; a larger one is data that
// belongs in a tool or a file.
const (
	MaxNesting     = 500
	MaxSourceBytes = 256 << 10
	// bracketSlack is how many levels of other nesting may come with
	// brackets for the bracket message to be the one that helps: `x = [[[`
	// is brackets, though the assignment counts one level.
	bracketSlack = 8
	// maxReadings bounds the ways of reading `/` the meter follows at once;
	// readings of real code meet again within a line.
	maxReadings = 32
)

// Reasons of the bounds.
const (
	ReasonSourceTooDeep  Reason = "source_too_deep"
	ReasonSourceTooLarge Reason = "source_too_large"
)

// Messages of the bounds.
var (
	MsgBracketsTooDeep = fmt.Sprintf("code mode source nests brackets deeper than %d levels; flatten it "+
		"(build deep data in a loop, or pass it as JSON text and JSON.parse it).", MaxNesting)
	MsgNestingTooDeep = fmt.Sprintf("code mode source nests deeper than %d levels (brackets plus chains of "+
		"prefix operators, assignments, conditionals, arrow functions, calls or if/else); split it into "+
		"smaller statements and functions.", MaxNesting)
	MsgSourceTooLarge = fmt.Sprintf("code mode source is larger than %d bytes; split the work over several "+
		"exec calls, or keep large data in tools and files instead of the code.", MaxSourceBytes)
	MsgSourceUnreadable = "code mode source cannot be checked for nesting: too many of its `/` could start " +
		"a regular expression or divide; put parentheses around divisions or split the code."
)

// checkBounds refuses code that nests deeper than MaxNesting (as JavaScript
// or TypeScript as ts says) or is larger than MaxSourceBytes. Nesting is
// checked first: it is the more useful message for a cell that is both,
// and the meter stops at the first level past the bound, so huge inputs
// cost one linear scan at most.
func checkBounds(code string, ts bool) error {
	depth, brackets, ok := measureNesting(code, ts)
	// The shell check parses the code without its leading comment lines,
	// and a # line is a comment only to it: measure what esbuild gets.
	if s, _ := skipLeadingComments(code); strings.Contains(code[:len(code)-len(s)], "#") {
		d, b, sok := measureNesting(s, ts)
		depth, brackets, ok = max(depth, d), max(brackets, b), ok && sok
	}
	switch {
	case depth > MaxNesting && depth-brackets <= bracketSlack:
		return reject(ReasonSourceTooDeep, MsgBracketsTooDeep)
	case depth > MaxNesting:
		return reject(ReasonSourceTooDeep, MsgNestingTooDeep)
	case !ok:
		return reject(ReasonSourceTooDeep, MsgSourceUnreadable)
	case len(code) > MaxSourceBytes:
		return reject(ReasonSourceTooLarge, MsgSourceTooLarge)
	}
	return nil
}

// measureNesting returns the deepest level and the deepest bracket nesting
// of code in any way esbuild may read it, as defined in nest.go. It stops
// once a reading is past MaxNesting. ok is false when more than maxReadings
// readings were open at once: the code was not measured.
//
// Where a `/` may be division or a regular expression, both readings are
// followed, side by side: the one furthest behind steps first, and two that
// reach the same place in the same state merge, keeping the deeper counts.
// A reading that hits a lexical error stops there: esbuild stops at the same
// place, having recursed no deeper than measured up to it.
func measureNesting(code string, ts bool) (depth, brackets int, ok bool) {
	sh := &lexShared{}
	live := []*lexer{{src: code, shared: sh, m: newMeter(ts), open: []openKind{openParen, openBlock}, nl: true}}
	for len(live) > 0 {
		i := 0
		for k, lx := range live {
			if lx.pos < live[i].pos {
				i = k
			}
		}
		lx := live[i]
		err := lx.skipSpaceAndComments()
		done := err != nil || lx.pos >= len(lx.src)
		if !done {
			done = lx.next() != nil
		}
		depth, brackets = max(depth, lx.m.max), max(brackets, lx.m.brackets)
		if depth > MaxNesting {
			return depth, brackets, true
		}
		live = append(live, sh.forked...)
		sh.forked = sh.forked[:0]
		if !done {
			for k, o := range live {
				if k != i && sameState(lx, o) {
					o.m.merge(lx.m)
					done = true
					break
				}
			}
		}
		if done {
			live = append(live[:i], live[i+1:]...)
		}
		if len(live) > maxReadings {
			return depth, brackets, false
		}
	}
	return depth, brackets, true
}
