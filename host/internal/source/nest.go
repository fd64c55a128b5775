package source

import "slices"

// Nesting is measured before esbuild sees a cell because esbuild's parser,
// visitor and printer recurse once per level of nesting, and a Go stack
// overflow is fatal: it kills the process, it cannot be recovered. The meter
// runs inside the lexer, token by token, without recursion.
//
// A level is whatever makes esbuild recurse. Brackets ( [ { and template
// `${` each open a frame one level deeper. Inside a frame, what nests
// without a bracket is counted too:
//
//   - pre: what nests the expression after it: prefix operators (! ~ + - ++
//     -- typeof void delete await yield new, a class's extends, TypeScript
//     keyof and friends),
//     right-associative operators (=, op=, **, ?:) and arrows. A comma or a
//     statement end ends them.
//   - post: the height of the current chain of member accesses, calls,
//     indexes and tagged templates (a.b(c)[d]`e`). Such a chain is a tree
//     that leans left: each link puts everything before it one level deeper,
//     the brackets' contents included, so a closing bracket hands its height
//     to the chain and every later link adds one. Any other token ends the
//     chain.
//   - angle: TypeScript `<`, since type arguments nest without a bracket the
//     lexer knows, with commas between them; only a statement end ends them.
//   - seq: comma operators (not the commas of arrays, objects, arguments and
//     enums). esbuild builds a left-leaning tree of them and its printer
//     walks that tree again at every comma: the walk recurses once per comma
//     and the whole costs their square (20,000 commas take 10 s). Only a
//     statement end ends them.
//   - stmt: if, else, loops, with and labels, which nest the statement after
//     them; a statement end ends them unless else, catch, finally or while
//     follows.
//
// A statement ends at a semicolon, at a line break where an automatic
// semicolon must go (an operand before it, an identifier or literal after
// it), and at the `}` of a block followed by the start of a statement.
// Other left-associative operators (+, &&, ??, ...) are not counted: esbuild
// parses, visits and prints their chains with loops.
//
// A token's depth is its frame's base (the depth of the bracket that opened
// it, plus one) plus the counters. Each rule errs upwards: the meter may call
// code deeper than esbuild finds it, never shallower.
type frame struct {
	kind                        openKind
	base                        int
	pre, post, angle, stmt, seq int
	deep                        int  // the deepest level inside the frame so far
	link                        bool // the bracket is a call or an index
	list                        bool // its commas separate items: an array, object, arguments, enum
	end                         endKind
}

// top is the depth of the frame's current expression: where a bracket
// opened now sits below.
func (f *frame) top() int { return f.base + f.pre + f.angle + f.stmt + f.seq }

// endKind says how the next token decides whether a statement ended.
type endKind uint8

// The order matters to merge: a later kind resets in more cases.
const (
	endNone endKind = iota
	endSoft         // after a block's }: ended if a statement starts, else an expression goes on
	endHard         // after ; or an automatic semicolon: ended unless else, catch, finally or while follows
)

type meter struct {
	ts       bool
	frames   []frame
	max      int  // deepest level seen
	brackets int  // deepest bracket nesting seen
	wrapped  int  // brackets of the wrapper still open
	cont     bool // a template's `}` just closed: the next template text goes on with it
}

// wrapperFrames are the program and the brackets of wrapOpen, which esbuild
// parses around the code, so that a cell closing them (`}); ...`) is still
// measured as esbuild reads it. They do not count as the cell's brackets.
const wrapperFrames = 3

func newMeter(ts bool) *meter {
	return &meter{ts: ts, frames: []frame{{kind: openBlock}, {kind: openParen}, {kind: openBlock}}, wrapped: wrapperFrames - 1}
}

func (m *meter) clone() *meter {
	c := *m
	c.frames = slices.Clone(m.frames)
	return &c
}

func (m *meter) note(f *frame) {
	d := f.top() + f.post
	f.deep = max(f.deep, d)
	m.max = max(m.max, d)
	m.brackets = max(m.brackets, len(m.frames)-1-m.wrapped)
}

// merge makes m count at least as deep as o everywhere. Both have the same
// open brackets, which is checked before.
func (m *meter) merge(o *meter) {
	for i := range m.frames {
		f, g := &m.frames[i], &o.frames[i]
		f.base, f.pre, f.post = max(f.base, g.base), max(f.pre, g.pre), max(f.post, g.post)
		f.angle, f.stmt, f.seq, f.deep = max(f.angle, g.angle), max(f.stmt, g.stmt), max(f.seq, g.seq), max(f.deep, g.deep)
		f.link, f.list = f.link || g.link, f.list && g.list
		f.end = min(f.end, g.end) // the end that resets in fewer cases
	}
	m.max, m.brackets, m.wrapped = max(m.max, o.max), max(m.brackets, o.brackets), min(m.wrapped, o.wrapped)
}

// statement keywords that nest the statement after them.
var nestingStatements = map[string]bool{"if": true, "else": true, "for": true, "while": true, "with": true, "do": true}

// prefix keywords whose operand is parsed recursively: `class extends class
// extends ... {} {}` nests too. The TypeScript ones are type operators.
var prefixKeywords = map[string]bool{
	"typeof": true, "void": true, "delete": true, "await": true, "yield": true, "new": true,
	"extends": true, "keyof": true, "readonly": true, "infer": true, "unique": true, "asserts": true,
}

// continuations keep a statement going after it seemed to end.
var continuations = map[string]bool{"else": true, "catch": true, "finally": true, "while": true}

// notStatementStart are identifiers that, after a line break or a block,
// may go on with the expression before them.
var notStatementStart = map[string]bool{
	"else": true, "catch": true, "finally": true, "while": true, "in": true, "instanceof": true,
	"of": true, "as": true, "satisfies": true, "extends": true, "implements": true,
}

// back returns the token i places before the last one, or a `;` before the
// start.
func (lx *lexer) back(i int) token {
	if k := len(lx.toks) - 1 - i; k >= 0 {
		return lx.toks[k]
	}
	return token{kind: tokPunct, text: ";"}
}

func startsStatement(lx *lexer, t token) bool {
	switch t.kind {
	case tokIdent:
		return !notStatementStart[t.text] && !lx.afterDot(len(lx.toks)-1)
	case tokString, tokNumber:
		return true
	}
	return false
}

// typeOperators are TypeScript words after which a type follows, across a
// line break too.
var typeOperators = map[string]bool{"as": true, "satisfies": true, "is": true, "implements": true}

// endsOperand reports whether toks[i] can end an expression, so that a line
// break after it may be an automatic semicolon.
func endsOperand(lx *lexer, i int) bool {
	t := lx.toks[i]
	switch t.kind {
	case tokIdent:
		return lx.afterDot(i) || !exprKeywords[t.text] && !prefixKeywords[t.text] && !typeOperators[t.text]
	case tokPunct:
		return t.text == "]" || (t.text == ")" || t.text == "}") && !lx.regexOK
	}
	return true // literals, private names, templates
}

func isPunct(t token, p string) bool { return t.kind == tokPunct && t.text == p }

// link reports whether a bracket or template at this point is one more link
// of a chain: it follows an operand, or ?. as in a?.[0] and a?.(). After a
// block's `}` it may follow a function expression, so it counts as a link
// there too.
func (lx *lexer) link() bool {
	return !lx.operand || isPunct(lx.back(1), "}") || isPunct(lx.back(1), "?.")
}

// token counts the token just emitted.
func (m *meter) token(lx *lexer) {
	f := &m.frames[len(m.frames)-1]
	t, prev := lx.back(0), lx.back(1)
	if t.kind == tokPunct {
		switch t.text {
		case ")", "]", "}": // emitted after their frame closed; the next token decides what ended
			return
		case "(", "[", "{", "${": // open does the counting
			return
		}
	}
	if t.nl && f.end == endNone && len(lx.toks) > 1 && endsOperand(lx, len(lx.toks)-2) && startsStatement(lx, t) {
		f.end = endHard
	}
	if f.end != endNone {
		if f.end == endHard && !(t.kind == tokIdent && continuations[t.text]) || f.end == endSoft && startsStatement(lx, t) {
			f.pre, f.post, f.angle, f.stmt, f.seq = 0, 0, 0, 0, 0
		}
		f.end = endNone
	}
	src, at := lx.src, lx.pos-1 // the last byte of a punctuator
	switch t.kind {
	case tokIdent:
		switch {
		case lx.afterDot(len(lx.toks) - 1):
			return // a property name, part of its link
		case t.text == "if" && prev.kind == tokIdent && prev.text == "else":
			// else if is one level, not two
		case nestingStatements[t.text]:
			f.stmt++
		case prefixKeywords[t.text]:
			f.pre++
		}
		f.post = 0
	case tokPunct:
		switch t.text {
		case ".", "?.":
			if t.text == "." && (byteAt(src, at-1, '.') || byteAt(src, at+1, '.')) {
				if !byteAt(src, at+1, '.') {
					f.pre++ // the last dot of a spread ...x
				}
				break
			}
			f.post++
			m.note(f)
			return
		case "!", "++", "--":
			if !lx.operand { // TypeScript's non-null x!, postfix x++: over the chain
				f.post++
				m.note(f)
				return
			}
			f.pre++
		case "~", "+", "-":
			if lx.operand {
				f.pre++
			}
		case ";":
			f.end, f.pre, f.angle = endHard, 0, 0
		case ",":
			f.pre = 0
			if !f.list {
				f.seq++
			}
		case "=>":
			f.pre++
		case "=": // = and op=, but not == === != !==; <= and >= err upwards
			if !byteAt(src, at+1, '=') && !byteAt(src, at-1, '=') && !byteAt(src, at-1, '!') {
				f.pre++
			}
		case "?": // a conditional, not ??
			if !byteAt(src, at+1, '?') && !byteAt(src, at-1, '?') {
				f.pre++
			}
		case "*":
			if byteAt(src, at-1, '*') {
				f.pre++ // the second star of **
			}
		case "<":
			if m.ts {
				f.angle++
			}
		case ":": // a label; ternaries and type annotations err upwards
			if f.kind == openBlock && prev.kind == tokIdent && !t.inObject &&
				!(lx.back(2).kind == tokIdent && lx.back(2).text == "case") {
				f.stmt++
			}
		}
		f.post = 0
	case tokTemplate:
		switch {
		case m.cont:
			m.cont = false // the text after a `}`: the same template
		case lx.link():
			f.post++ // a tagged template
		default:
			f.post = 0
		}
	case tokPrivate:
		if lx.afterDot(len(lx.toks) - 1) {
			return // a.#b: part of its link
		}
		f.post = 0
	default:
		f.post = 0 // a literal starts a new chain
	}
	m.note(f)
}

// open starts the frame of a bracket just emitted.
func (m *meter) open(lx *lexer, kind openKind) {
	f := &m.frames[len(m.frames)-1]
	base := f.top() + 1
	if kind == openBlock && isPunct(lx.back(1), "=>") {
		base-- // an arrow and its body are one level
	}
	link := (kind == openParen || kind == openBracket) && lx.link()
	if !link && kind != openTemplate {
		f.post = 0 // a new operand
	}
	isEnum := kind == openBlock && lx.back(1).kind == tokIdent && lx.back(2).kind == tokIdent && lx.back(2).text == "enum"
	list := link || kind == openBracket || kind == openObject || isEnum
	m.frames = append(m.frames, frame{kind: kind, base: base, link: link, list: list})
	m.note(&m.frames[len(m.frames)-1])
}

// close ends a frame and hands its height to the chain it is part of.
func (m *meter) close(kind openKind) {
	c := m.frames[len(m.frames)-1]
	m.frames = m.frames[:len(m.frames)-1]
	m.wrapped = min(m.wrapped, len(m.frames)-1) // a cell may close the wrapper
	f := &m.frames[len(m.frames)-1]
	if c.link {
		f.post++
	}
	f.post = max(f.post, c.deep-f.top())
	switch kind {
	case openBlock:
		f.end = endSoft
	case openTemplate:
		m.cont = true
	}
	m.note(f)
}

func byteAt(s string, i int, b byte) bool { return i >= 0 && i < len(s) && s[i] == b }

// measuredAmbiguous lists, beyond `)` and `}`, the punctuators after which a
// `/` may be read either way by esbuild: postfix or prefix ++ and --,
// TypeScript's non-null `!` and type arguments' `>`, and a character this
// lexer does not know (esbuild may take it for part of an identifier).
func measuredAmbiguous(p string) bool {
	switch p {
	case ")", "}", "++", "--", "!", ">":
		return true
	}
	return p[0] >= 0x80
}

// clone is a measuring fork: the same place and state, reading the `/` at
// pos as regex says.
func (lx *lexer) clone(regex bool) *lexer {
	c := *lx
	c.toks, c.open, c.m, c.force = slices.Clone(lx.toks), slices.Clone(lx.open), lx.m.clone(), &regex
	return &c
}

// sameState reports whether two readings will read the rest of the code
// alike: same place, brackets, the tokens the rules look back at, and flags.
func sameState(a, b *lexer) bool {
	if a.pos != b.pos || a.regexOK != b.regexOK || a.nl != b.nl || a.force != nil || b.force != nil ||
		a.m.cont != b.m.cont || !slices.Equal(a.open, b.open) {
		return false
	}
	for i := range 4 {
		if x, y := a.back(i), b.back(i); x.kind != y.kind || x.text != y.text || x.inObject != y.inObject || x.nl != y.nl {
			return false
		}
	}
	return true
}
