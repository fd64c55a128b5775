package source

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
)

// A cell is the body of an async function, so its value is what it returns.
// Models often end a cell the way they would in a REPL, with an expression
// (`const r = await f(); r.items.length`) and no return, and then get null.
// So a cell with no return statement of its own whose last statement is an
// expression statement returns that expression: `return (` goes before it
// and `)` after it, on the lines where they stand, so no line moves; the
// cell's Map takes the inserted text out of error positions again. The
// reference returned null here; this is a deliberate difference.
//
// The statement is found on the module check's tokens (lex.go), without a
// parser. When that reading is certain (the cell's `/` are all unambiguous,
// the statement starts after a `;`, a block or a line break that must end
// the statement before it, and it is a plain expression: operands, operators,
// calls and members, no functions or object literals at its top) the
// rewrite is made as is: this is the common case, and it costs a walk over
// the tokens. Otherwise esbuild prints the cell and the rewritten cell in
// one run, and the rewrite is kept only when both parse and the prints
// differ by the return alone, which proves the statement was found where
// esbuild finds it. TypeScript cells are transformed anyway; the rewritten
// one is transformed too and compared with the first the same way.
// Whenever anything is in doubt the cell runs unchanged.

const (
	returnOpen  = "return ("
	returnClose = ")"
)

// tailCalls counts esbuild runs made to confirm a rewrite, so a test can
// prove that cells which return, and plain trailing expressions, make none.
var tailCalls atomic.Int64

// returnTail rewrites a JavaScript cell whose last statement is an
// expression to return it. lx is the module check's reading of code. It
// returns code and a nil Map when the cell stays as it is.
//
// prior is what the check inserted into the user's code before (reshape),
// which made code; a Map is returned whenever anything was inserted.
func returnTail(code string, lx lexed, prior []insertion, user string, run esbuild) (string, *Map) {
	cand, ins, ok := tailOf(code, lx, run)
	if !ok {
		if prior == nil {
			return code, nil
		}
		return code, insertedMap(code, prior, user)
	}
	return cand, insertedMap(cand, append(slices.Clip(prior), ins...), user)
}

func tailOf(code string, lx lexed, run esbuild) (string, []insertion, bool) {
	if !lx.ok {
		return "", nil, false
	}
	t, ok := findTail(code, lx.toks, scanTop(lx.toks, true))
	if !ok {
		return "", nil, false
	}
	cand, ins := t.apply(code)
	if !(t.sure && lx.sure) && !returnsTail(code, cand, run) {
		return "", nil, false
	}
	return cand, ins, true
}

// returnTailTS is returnTail for TypeScript: code is the cell, lx its
// tokens, js its transform and out the tokens of that. Whether the cell has
// a return of its own is read on the JavaScript, where types no longer hide
// which braces are function bodies; the statement is found in the
// TypeScript, so the rewrite is the user's code and the source map stays
// the transform's own.
func returnTailTS(code string, lx lexed, js string, out lexed, prior []insertion, user string, run esbuild) (string, *Map, bool) {
	if !lx.ok || !out.ok || scanTop(out.toks, true).ret {
		return "", nil, false
	}
	top := scanTop(lx.toks, false)
	top.ret = false
	t, ok := findTail(code, lx.toks, top)
	if !ok {
		return "", nil, false
	}
	cand, ins := t.apply(code)
	// js2 passes the module check because js did: returnedForm proves it is
	// js with a return (and parentheses) added, which name no loader.
	js2, m, err := transformTypeScript(cand, run)
	if err != nil || !returnedForm(js, js2) {
		return "", nil, false
	}
	m.ins = append(slices.Clip(prior), ins...)
	m.endLine, m.endCol = endOf(user)
	return js2, m, true
}

// tail is the expression of a cell's last statement.
type tail struct {
	start, end int  // its bytes in the code, without the statement's `;`
	sure       bool // the tokens alone prove it is the whole last statement
}

// apply inserts the return around the expression and says where.
func (t tail) apply(code string) (string, []insertion) {
	line := strings.Count(code[:t.start], "\n") + 1
	col := t.start - (strings.LastIndexByte(code[:t.start], '\n') + 1)
	endLine := line + strings.Count(code[t.start:t.end], "\n")
	endCol := t.end - (strings.LastIndexByte(code[:t.end], '\n') + 1)
	if endLine == line {
		endCol += len(returnOpen)
	}
	cand := code[:t.start] + returnOpen + code[t.start:t.end] + returnClose + code[t.end:]
	return cand, []insertion{{line, col, len(returnOpen)}, {endLine, endCol, len(returnClose)}}
}

// top is what scanTop finds about a cell's top level.
type top struct {
	ret      bool // a return statement outside every function body
	balanced bool // every bracket closed
	last     int  // index of the last top-level statement's first token; -1 if none
	sure     bool // a statement certainly starts at last
}

// bracket is one open around the scanner's position: the cell itself at the bottom.
type bracket struct {
	open string // ( [ { ${, or "" for the cell itself
	fn   bool   // a function's or class's body: a return in it is not the cell's
	head bool   // the ( of if, for, while, with, switch or catch: a statement follows
	stmt bool   // a top-level { that ends its statement: a block, or the body of a statement or declaration
	do   bool   // the body of do ... while
	// pend says a function or class keyword in this bracket waits for its body.
	pend bool
	// maybeReturn marks the ( after a return the lexer read inside an object
	// literal: a method's parameters if a { follows the ), else the return
	// statement of a block the lexer misread (`x = 1\n{ return (2) }`).
	maybeReturn bool
}

// scanTop walks the tokens once, keeping the open brackets, and finds where
// each top-level statement starts by the rules of automatic semicolon
// insertion. It errs towards "the statement goes on", which can only make
// the rewrite fail to parse, never change what the cell means. With
// stopAtReturn it stops at the cell's first return statement: the common
// cell then costs a walk to its return, and nothing else is needed.
func scanTop(toks []token, stopAtReturn bool) top {
	res := top{last: -1}
	var buf [32]bracket // real cells nest less: no allocation for them
	stack := append(buf[:0], bracket{})
	fns := 0               // open function bodies
	prev := -1             // the last top-level token
	var closed bracket     // the bracket toks[prev] closed, when it is a closer
	var justClosed bracket // the bracket the token before this one closed
	for i, t := range toks {
		var popped bracket
		didPop := false
		for int(t.depth)+1 < len(stack) { // a closer, or template text after an interpolation
			popped, didPop = stack[len(stack)-1], true
			stack = stack[:len(stack)-1]
			if popped.fn {
				fns--
			}
			if popped.maybeReturn && !punctAt(toks, i+1, "{") { // return (...), not return() {}
				if res.ret = true; stopAtReturn {
					return res
				}
			}
		}
		if int(t.depth)+1 != len(stack) {
			return top{last: -1} // the lexer's brackets and these disagree: give up
		}
		cur := &stack[len(stack)-1]
		atTop := len(stack) == 1
		if atTop && !didPop {
			if starts, sure := startsStmt(toks, i, prev, closed, cur); starts {
				res.last, res.sure = i, sure
			}
		}
		switch t.kind {
		case tokIdent:
			switch t.text {
			case "function", "class":
				if !isProperty(toks, i) {
					cur.pend = true
				}
			case "return":
				// In what the lexer took for an object literal, return( may
				// name a method; its ( decides when it closes.
				if fns == 0 && !isProperty(toks, i) && !(t.inObject && punctAt(toks, i+1, "(")) {
					if res.ret = true; stopAtReturn {
						return res
					}
				}
			}
		case tokPunct:
			switch t.text {
			case ";":
				cur.pend = false // a TypeScript overload has no body
			case "(":
				maybe := i > 0 && toks[i-1].kind == tokIdent && toks[i-1].text == "return" && toks[i-1].inObject &&
					fns == 0 && !isProperty(toks, i-1)
				stack = append(stack, bracket{open: "(", head: isHead(toks, i), maybeReturn: maybe})
			case "[", "${":
				stack = append(stack, bracket{open: t.text})
			case "{":
				f := bracket{open: "{"}
				afterParams := i > 0 && isPunct(toks[i-1], ")") && justClosed.open == "(" && !justClosed.head
				if cur.pend || afterParams || i > 0 && isPunct(toks[i-1], "=>") {
					f.fn = true
					if cur.pend && len(stack) == 1 {
						f.stmt = declares(toks, res.last)
					}
					cur.pend = false
				}
				if len(stack) == 1 && !f.fn {
					f.stmt, f.do = blockOfStatement(toks, i, res.last, justClosed)
				}
				if f.fn {
					fns++
				}
				stack = append(stack, f)
			}
		}
		if didPop {
			justClosed = popped
		} else {
			justClosed = bracket{}
		}
		if atTop {
			prev, closed = i, justClosed
		}
	}
	res.balanced = len(stack) == 1
	return res
}

// isProperty reports whether toks[i] names a property (x.return, {class: 1})
// rather than being a keyword.
func isProperty(toks []token, i int) bool {
	return afterDot(toks, i) || punctAt(toks, i+1, ":")
}

func afterDot(toks []token, i int) bool {
	return i > 0 && (isPunct(toks[i-1], ".") || isPunct(toks[i-1], "?."))
}

// isHead reports whether the ( at toks[i] is a statement's head.
func isHead(toks []token, i int) bool {
	if i == 0 || toks[i-1].kind != tokIdent || isProperty(toks, i-1) {
		return false
	}
	switch toks[i-1].text {
	case "if", "while", "for", "with", "switch", "catch":
		return true
	case "await": // for await (...)
		return i > 1 && toks[i-2].kind == tokIdent && toks[i-2].text == "for"
	}
	return false
}

// declares reports whether the statement starting at toks[first] is a
// function or class declaration, whose body's } ends it.
func declares(toks []token, first int) bool {
	if first < 0 || toks[first].kind != tokIdent {
		return false
	}
	switch toks[first].text {
	case "function", "class", "async", "abstract", "declare":
		return true
	}
	return false
}

// blockOfStatement reports whether the top-level { at toks[i], which is not
// a function body, ends its statement: a block, a label's block, or the body
// of if, a loop, try, catch, finally, switch or with. do is true for the
// body of do ... while, which goes on with its while.
func blockOfStatement(toks []token, i, first int, justClosed bracket) (stmt, do bool) {
	if first == i {
		return true, false // a block
	}
	p := toks[i-1]
	switch {
	case isPunct(p, ")"):
		return justClosed.head, false
	case p.kind == tokIdent && !isProperty(toks, i-1):
		switch p.text {
		case "else", "try", "finally", "catch":
			return true, false
		case "do":
			return true, true
		}
	case isPunct(p, ":") && i-2 == first && toks[first].kind == tokIdent:
		return true, false // label: { ... }
	}
	return false, false
}

// startsStmt reports whether toks[i], a top-level token that is not a
// closer, starts a new statement, given the top-level token before it and
// the bracket that one closed; sure is false where the rule guesses. cur is
// the top bracket, for a function or class still waiting for its body.
func startsStmt(toks []token, i, prev int, closed bracket, cur *bracket) (starts, sure bool) {
	if prev < 0 {
		return true, true
	}
	t, p := toks[i], toks[prev]
	if t.kind == tokIdent && (t.text == "else" || t.text == "catch" || t.text == "finally") {
		return false, false
	}
	if isPunct(t, "{") && (cur.pend || isPunct(p, "=>") || isPunct(p, ")") && !closed.head) {
		return false, false // a body
	}
	switch {
	case isPunct(p, ";"):
		return true, true
	case isPunct(p, "}") && closed.stmt:
		if t.kind == tokIdent && t.text == "while" && closed.do {
			return false, false
		}
		return true, true
	case isPunct(p, "}") || isPunct(p, ")"):
		if closed.head || !t.nl {
			return false, false
		}
		s, sure := startsOnly(t)
		return s, sure // after an operand: automatic semicolon
	}
	if !t.nl {
		return false, false
	}
	ends, sureEnd := endsOperandToken(toks, prev)
	if !ends {
		return false, false
	}
	s, sureStart := startsOnly(t)
	return s, sureEnd && sureStart
}

// startsOnly reports whether t, after a line break that follows an operand,
// cannot go on with the expression before it, so an automatic semicolon
// goes before it.
func startsOnly(t token) (starts, sure bool) {
	switch t.kind {
	case tokIdent:
		return !continuesWords[t.text], true
	case tokNumber, tokString, tokPrivate:
		return true, true
	case tokRegex:
		return true, false // the lexer guessed at a `/` after an operand
	case tokPunct:
		switch t.text {
		case "!", "~", "++", "--": // ++ and -- after a line break are prefix
			return true, true
		case "{", "@":
			return true, false // TypeScript puts bodies there on their own line
		}
	}
	return false, false // templates, brackets, operators: the expression goes on
}

// continuesWords go on with the expression or statement before them.
var continuesWords = wordSet(`in instanceof of as satisfies extends implements else catch finally`)

// endsOperandToken reports whether toks[i], not a ) or }, ends an operand, so
// that a line break after it may be an automatic semicolon.
func endsOperandToken(toks []token, i int) (ends, sure bool) {
	t := toks[i]
	switch t.kind {
	case tokNumber, tokString, tokRegex, tokPrivate:
		return true, true
	case tokTemplate:
		return t.closes, true
	case tokPunct:
		switch t.text {
		case "]":
			return true, true
		case "++", "--": // postfix, unless it was prefix before a line break
			return true, false
		}
		return false, false
	}
	if afterDot(toks, i) {
		return true, true // a property name: x.if
	}
	switch {
	case operatorWords[t.text]:
		return false, false
	case typeWords[t.text]:
		return true, false
	}
	return true, true
}

// operatorWords are keywords after which a statement or expression must go
// on: no automatic semicolon follows them.
var operatorWords = wordSet(`
	var let const function class if for while do switch try catch finally throw new typeof void
	delete in instanceof of extends case default else import export with yield await return
`)

// typeWords are TypeScript's contextual keywords, whose rules across a line
// break the scanner does not follow.
var typeWords = wordSet(`
	type interface declare abstract namespace module enum readonly keyof infer is asserts unique
	public private protected override accessor as satisfies implements
`)

// findTail returns the expression of the cell's last statement when the
// cell has no return statement of its own and that statement is an
// expression statement.
func findTail(code string, toks []token, top top) (tail, bool) {
	if top.ret || !top.balanced || top.last < 0 {
		return tail{}, false
	}
	first, last := top.last, len(toks)-1
	if last > first && isPunct(toks[last], ";") {
		last--
	}
	if !expressionStart(toks, first) {
		return tail{}, false
	}
	if first == last && toks[first].kind == tokString && toks[first].text == "use strict" {
		return tail{}, false // a directive, not a value
	}
	t := tail{start: int(toks[first].start), end: int(toks[last].end)}
	// esbuild and some engines read <!-- and --> as comments, the lexer does not.
	html := strings.Contains(code[t.start:t.end], "<!--") || strings.Contains(code[t.start:t.end], "-->")
	t.sure = top.sure && !html && plainExpression(code, toks, first, last)
	return t, true
}

// statementWords start statements that are not expression statements.
var statementWords = wordSet(`
	var let const function class if for while do switch try throw return break continue debugger
	with import export else catch finally case default enum
`)

// declarationWords start TypeScript declarations when a name follows on the
// same line.
var declarationWords = wordSet(`type interface declare abstract namespace module`)

// expressionStart reports whether the statement at toks[i] is an expression
// statement, as far as its first tokens tell.
func expressionStart(toks []token, i int) bool {
	t := toks[i]
	switch t.kind {
	case tokPunct:
		switch t.text {
		case "(", "[", "!", "~", "+", "-", "++", "--", "<":
			return true
		}
		return false // a block, an empty statement, a decorator
	case tokIdent:
		if statementWords[t.text] || punctAt(toks, i+1, ":") { // a label
			return false
		}
		if i+1 < len(toks) && toks[i+1].kind == tokIdent && !toks[i+1].nl && !continuesWords[toks[i+1].text] {
			if t.text == "async" && toks[i+1].text == "function" || declarationWords[t.text] {
				return false
			}
		}
	}
	return true
}

// Words an operand may be in a plain expression.
var (
	literalWords  = wordSet(`this null true false`)
	prefixWords   = wordSet(`typeof void delete await new`)
	reservedWords = wordSet(`
		break case catch class const continue debugger default delete do else enum export extends
		finally for function if import in instanceof new return super switch throw try typeof var
		void while with yield let static implements interface package private protected public await
	`)
	binaryOperators = wordSet(`
		+ - * / % ** == != === !== < > <= >= << >> >>> & | ^ && || ?? = += -= *= /= %= **= <<= >>=
		>>>= &= |= ^= &&= ||= ??= , ? :
	`)
)

// operatorChars are the punctuators that make up binary operators; the lexer
// gives them one token per character.
const operatorChars = "=!<>&|?:+-*/%^~,"

// plainExpression reports whether toks[first..last], all at the top level,
// are certainly one expression: prefix operators, operands (names, literals,
// parenthesized and bracketed groups, templates), postfix links (members,
// calls, indexes, tagged templates, ++ and -- on the same line) and binary
// operators between them. What is inside brackets is not looked at: it is
// the same in the cell and in its rewrite. Functions, arrows, object
// literals and classes at the top are not plain: esbuild decides those.
func plainExpression(code string, toks []token, first, last int) bool {
	operand := true // an operand is expected next
	conditionals := 0
	for k := first; k <= last; k++ {
		t := toks[k]
		if operand {
			switch {
			case t.kind == tokPunct && (t.text == "!" || t.text == "~" || t.text == "+" || t.text == "-" ||
				t.text == "++" || t.text == "--"):
				continue
			case t.kind == tokIdent && prefixWords[t.text]:
				continue
			case t.kind == tokIdent:
				if reservedWords[t.text] && !literalWords[t.text] {
					return false
				}
			case t.kind == tokNumber || t.kind == tokString || t.kind == tokRegex:
			case t.kind == tokTemplate:
				if k = skipTemplate(toks, k); k < 0 || k > last {
					return false
				}
			case isPunct(t, "(") || isPunct(t, "["):
				if k = skipGroup(toks, k); k < 0 || k > last {
					return false
				}
			default:
				return false
			}
			operand = false
			continue
		}
		switch {
		case isPunct(t, ".") || isPunct(t, "?."):
			if k+1 > last {
				return false
			}
			switch n := toks[k+1]; {
			case n.kind == tokIdent || n.kind == tokPrivate:
				k++
			case isPunct(t, "?.") && (isPunct(n, "(") || isPunct(n, "[")):
				if k = skipGroup(toks, k+1); k < 0 || k > last {
					return false
				}
			default:
				return false
			}
		case isPunct(t, "(") || isPunct(t, "["): // a call or an index, across a line break too
			if k = skipGroup(toks, k); k < 0 || k > last {
				return false
			}
		case t.kind == tokTemplate: // a tagged template
			if k = skipTemplate(toks, k); k < 0 || k > last {
				return false
			}
		case (isPunct(t, "++") || isPunct(t, "--")) && !t.nl:
		case t.kind == tokIdent && (t.text == "in" || t.text == "instanceof"):
			operand = true
		case t.kind == tokPunct && strings.Contains(operatorChars, t.text):
			op, n := binaryOperator(code, toks, k, last)
			if op == "" {
				return false
			}
			switch op {
			case "?":
				conditionals++
			case ":":
				if conditionals--; conditionals < 0 {
					return false
				}
			}
			k += n - 1
			operand = true
		default:
			return false
		}
	}
	return !operand && conditionals == 0
}

// binaryOperator reads the operator whose first character is toks[k]: the
// longest run of adjacent operator characters that is a binary operator.
// What follows it in the run (`=-1`, `&&!x`) is prefix operators, read next.
func binaryOperator(code string, toks []token, k, last int) (string, int) {
	end := k
	for end < last && end-k < 4 && toks[end+1].kind == tokPunct && toks[end+1].start == toks[end].end &&
		len(toks[end+1].text) == 1 && strings.Contains(operatorChars, toks[end+1].text) {
		end++
	}
	for ; end >= k; end-- {
		if op := code[toks[k].start:toks[end].end]; binaryOperators[op] {
			return op, end - k + 1
		}
	}
	return "", 0
}

// skipGroup returns the index of the closer of the bracket opened at
// toks[k], or -1.
func skipGroup(toks []token, k int) int {
	want := ")"
	if toks[k].text == "[" {
		want = "]"
	}
	for j := k + 1; j < len(toks); j++ {
		if toks[j].depth == toks[k].depth {
			if isPunct(toks[j], want) {
				return j
			}
			return -1
		}
	}
	return -1
}

// skipTemplate returns the index of the token that ends the template
// starting at toks[k], or -1.
func skipTemplate(toks []token, k int) int {
	for j := k; j < len(toks); {
		if toks[j].kind != tokTemplate {
			return -1
		}
		if toks[j].closes {
			return j
		}
		// the `${` opener, then what is inside it, then the template's next text
		j++
		if j >= len(toks) || !isPunct(toks[j], "${") {
			return -1
		}
		for j++; j < len(toks) && toks[j].depth > toks[k].depth; j++ {
		}
	}
	return -1
}

// returnsTail reports whether cand, code with its last statement's
// expression returned, parses and means code but for that return: esbuild
// prints both in one run (two async functions side by side), and the two
// bodies must differ by the return alone.
func returnsTail(code, cand string, run esbuild) bool {
	tailCalls.Add(1)
	res := run(wrapOpen+code+wrapClose+";\n"+wrapOpen+cand+wrapClose,
		api.TransformOptions{Loader: api.LoaderJS, LogLevel: api.LogLevelSilent})
	if len(res.Errors) > 0 {
		return false
	}
	out := string(res.Code)
	const head, mid, end = "(async () => {\n", "});\n(async () => {\n", "});\n"
	if !strings.HasPrefix(out, head) || !strings.HasSuffix(out, end) {
		return false
	}
	// The second body is longer by "return " and maybe by a pair of
	// parentheses more or less, so the lengths say where the first ends.
	for _, d := range []int{len("return "), len("return ") - 2, len("return ") + 2} {
		n := len(out) - len(head) - len(mid) - len(end) - d
		if n < 0 || n%2 != 0 {
			continue
		}
		a := out[len(head) : len(head)+n/2]
		if out[len(head)+n/2:len(head)+n/2+len(mid)] != mid {
			continue
		}
		if returnedForm(a, out[len(head)+n/2+len(mid):len(out)-len(end)]) {
			return true
		}
	}
	return false
}

// returnedForm reports whether b, esbuild's print of a rewritten cell, is a,
// its print of the cell, with "return " at the start of a statement, and
// otherwise the same but for the parentheses esbuild prints for a
// statement's place: around an expression statement that starts with {,
// class or function (`({}).x;`, `return {}.x;`), and around an arrow
// function that is returned (`x => 1;`, `return (x => 1);`).
func returnedForm(a, b string) bool {
	const ret = "return "
	cp := 0
	for cp < len(a) && cp < len(b) && a[cp] == b[cp] {
		cp++
	}
	// The return starts where the prints first differ, or up to six bytes
	// before when the expression starts like "return " does (result, re).
	for p := cp; p >= 0 && p >= cp-len(ret); p-- {
		if !strings.HasPrefix(b[p:], ret) || p > 0 && b[p-1] != ' ' && b[p-1] != '\n' {
			continue
		}
		ra, rb := a[p:], b[p+len(ret):]
		if ra == rb || statementParens(rb) && dropsParens(ra, rb, false) || dropsParens(rb, ra, true) {
			return true
		}
	}
	return false
}

// statementParens reports whether an expression statement printed as s
// starts with what esbuild puts in parentheses there.
func statementParens(s string) bool {
	for _, w := range []string{"{", "class", "function", "async function"} {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// dropsParens reports whether short is long without its leading `(` and
// one `)` after it; whole says that `)` must close the whole expression,
// just before its `;`.
func dropsParens(long, short string, whole bool) bool {
	if len(long) != len(short)+2 || long[0] != '(' {
		return false
	}
	l := long[1:]
	k := 0
	for k < len(short) && l[k] == short[k] {
		k++
	}
	if whole && !strings.HasPrefix(l[k:], ");") {
		return false
	}
	return l[k] == ')' && l[k+1:] == short[k:]
}
