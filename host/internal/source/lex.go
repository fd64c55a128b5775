package source

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies what the module check needs to tell apart. Comments and
// whitespace produce no tokens.
type tokKind uint8

const (
	tokIdent    tokKind = iota // identifier or keyword; text is the decoded name
	tokPrivate                 // #name
	tokPunct                   // text is the punctuator (single char except => ?. ++ --)
	tokString                  // text is the decoded value
	tokNumber                  // numeric literal
	tokRegex                   // regular expression literal
	tokTemplate                // a run of template text
)

type token struct {
	text string
	// start and end are the token's byte offsets in the source, and depth
	// the number of brackets open around it (an opener not counted, a
	// closer already closed): the trailing-expression rewrite (tail.go)
	// edits the source at statement boundaries it finds with them. They are
	// 32 bits so that a token stays 32 bytes (sources are bounded far below).
	start, end, depth int32
	kind              tokKind
	// inObject is true when the innermost open bracket is an object
	// literal's brace, which is where `import:` or `require()` can be a key.
	inObject bool
	nl       bool // a line terminator comes before it (automatic semicolons)
	closes   bool // a template token that ends its template (not at a `${`)
}

// openKind records what an open bracket started: whether a `/` after the
// matching closer is a regular expression, and whether keys are possible.
type openKind uint8

const (
	openParen    openKind = iota
	openHead              // ( of if/while/for/with: a statement follows the )
	openBracket           // [
	openBlock             // { of a block, function or class body
	openObject            // { of an object literal
	openTemplate          // ${ ... } inside a template literal
)

var errLex = errors.New("source: cannot tokenize")

// lexer is a small JavaScript tokenizer: just enough to find identifiers
// outside strings, comments, template text and regular expressions. It tells a
// regular expression from a division by the previous token, tracking whether
// each `)` closed a statement head (`if (...) /re/`) and whether each `}`
// closed a block or an object literal. It does not validate syntax; the engine
// does that.
type lexer struct {
	src  string
	pos  int
	toks []token
	open []openKind
	// regexOK says, when the last token was `)` or `}`, whether a regular
	// expression may follow it.
	regexOK bool
	shared  *lexShared
	force   *bool // set on a fork: how to read the `/` it starts at
	nl      bool  // a line terminator since the last token
	// m is set when the lexer measures nesting for esbuild (nest.go); it
	// then reads the code as esbuild does (HTML comments, the wrapper's
	// brackets), keeps only the last few tokens, and operand says whether
	// the token being read stands where an operand is expected.
	m       *meter
	operand bool
	start   int // where the token being read starts
}

// afterDot reports whether toks[i] is a property name (x.if, x?.return).
func (lx *lexer) afterDot(i int) bool {
	return i > 0 && lx.toks[i-1].kind == tokPunct && (lx.toks[i-1].text == "." || lx.toks[i-1].text == "?.")
}

// keywords after which an expression (and so a regular expression) starts.
var exprKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true,
}

// blockKeywords are followed by a block when followed by `{`.
var blockKeywords = map[string]bool{
	"else": true, "do": true, "try": true, "finally": true, "catch": true, "class": true,
	"static": true,
}

// tokenize returns the token stream of src. Where a `/` could be either a
// division or a regular expression depending on context this lexer does not
// track (after `)`, `}` or a keyword), it also lexes the other reading;
// alts holds those alternative streams that tokenized, so a caller can reject
// code if any reading is suspicious. exhausted reports that there were more
// such places than the budget allows, so the caller must be conservative.
func tokenize(src string) (toks []token, alts [][]token, exhausted bool, err error) {
	sh := &lexShared{budget: maxForks}
	lx := &lexer{src: src, shared: sh}
	if strings.HasPrefix(src, "#!") { // hashbang comment, legal at offset 0 only
		lx.skipLine()
	}
	err = lx.run()
	return lx.toks, sh.alts, sh.exhausted, err
}

// lexing is one tokenize of a source, shared by the checks that read it.
type lexing struct {
	toks      []token
	alts      [][]token
	exhausted bool
	err       error
}

func lex(src string) lexing {
	toks, alts, exhausted, err := tokenize(src)
	return lexing{toks, alts, exhausted, err}
}

// maxForks bounds the alternative readings lexed for one input.
const maxForks = 16

type lexShared struct {
	budget    int
	alts      [][]token
	exhausted bool
	forked    []*lexer // measuring: readings started since the driver last looked
}

func (lx *lexer) run() error {
	for {
		if err := lx.skipSpaceAndComments(); err != nil {
			return err
		}
		if lx.pos >= len(lx.src) {
			return nil
		}
		if err := lx.next(); err != nil {
			return err
		}
	}
}

// fork lexes the rest of the input reading the `/` at lx.pos the other way.
func (lx *lexer) fork(regex bool) {
	sh := lx.shared
	if lx.m != nil {
		sh.forked = append(sh.forked, lx.clone(regex))
		return
	}
	if sh.budget == 0 {
		sh.exhausted = true
		return
	}
	sh.budget--
	alt := &lexer{src: lx.src, pos: lx.pos, toks: slices.Clone(lx.toks), open: slices.Clone(lx.open),
		regexOK: lx.regexOK, shared: sh, force: &regex}
	if alt.run() == nil {
		sh.alts = append(sh.alts, alt.toks)
	}
}

// ambiguousSlash reports whether the regex-or-division choice at this point
// depends on context the lexer guesses: the kind of a `)` or `}`, or a
// contextual keyword that may also be a variable name (yield, await, of).
// A reserved word is a keyword unless it follows a dot, which regexAllowed
// sees, so it is never ambiguous.
func (lx *lexer) ambiguousSlash() bool {
	if len(lx.toks) == 0 {
		return false
	}
	t := lx.toks[len(lx.toks)-1]
	if lx.m != nil && t.kind == tokPunct && measuredAmbiguous(t.text) {
		return true
	}
	return t.kind == tokPunct && (t.text == ")" || t.text == "}") || t.kind == tokIdent && contextualKeywords[t.text]
}

var contextualKeywords = map[string]bool{"yield": true, "await": true, "of": true}

// skipLine skips to the next line terminator. U+2028 and U+2029 end a line
// too, as in every engine: a comment that ran past them would hide code.
func (lx *lexer) skipLine() {
	for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' &&
		!(lx.src[lx.pos] == 0xe2 && (strings.HasPrefix(lx.src[lx.pos:], "\u2028") || strings.HasPrefix(lx.src[lx.pos:], "\u2029"))) {
		lx.pos++
	}
}

func (lx *lexer) skipSpaceAndComments() error {
	for lx.pos < len(lx.src) {
		r, n := utf8.DecodeRuneInString(lx.src[lx.pos:])
		switch {
		case r == '/' && strings.HasPrefix(lx.src[lx.pos:], "//"):
			lx.skipLine()
		case r == '/' && strings.HasPrefix(lx.src[lx.pos:], "/*"):
			end := strings.Index(lx.src[lx.pos+2:], "*/")
			if end < 0 {
				return errLex
			}
			lx.nl = lx.nl || strings.ContainsAny(lx.src[lx.pos:lx.pos+end+2], "\n\r\u2028\u2029")
			lx.pos += end + 4
		case lx.m != nil && (strings.HasPrefix(lx.src[lx.pos:], "<!--") || lx.nl && strings.HasPrefix(lx.src[lx.pos:], "-->")):
			lx.skipLine() // esbuild's legacy HTML comments
		case unicode.IsSpace(r) || r == '\ufeff':
			lx.nl = lx.nl || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
			lx.pos += n
		default:
			return nil
		}
	}
	return nil
}

// regexAllowed reports whether a `/` at this point starts a regular expression.
func (lx *lexer) regexAllowed() bool {
	if len(lx.toks) == 0 {
		return true
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.kind {
	case tokIdent:
		return exprKeywords[t.text] && !lx.afterDot(len(lx.toks)-1)
	case tokPunct:
		switch t.text {
		case ")", "}":
			return lx.regexOK
		case "]", "++", "--":
			return false
		}
		return true
	}
	return false // literals, private names, template tails
}

// openBrace decides what a `{` starts from the token before it.
func (lx *lexer) openBrace() openKind {
	if len(lx.toks) == 0 {
		return openBlock
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.kind {
	case tokIdent:
		if exprKeywords[t.text] && !blockKeywords[t.text] {
			return openObject
		}
		return openBlock // class heads, else/try/finally, static blocks
	case tokPunct:
		switch t.text {
		case ";", "{", "}", ")", "=>":
			return openBlock
		case ":":
			if t.inObject {
				return openObject
			}
			return openBlock // label or case clause
		}
	}
	return openObject
}

func (lx *lexer) emit(kind tokKind, text string) {
	inObject := len(lx.open) > 0 && lx.open[len(lx.open)-1] == openObject
	lx.toks = append(lx.toks, token{kind: kind, text: text, inObject: inObject, nl: lx.nl,
		start: int32(lx.start), end: int32(lx.pos), depth: int32(len(lx.open))})
	lx.nl = false
	if lx.m != nil {
		lx.m.token(lx)
		if len(lx.toks) == 16 { // the rules look back at most four tokens
			lx.toks = lx.toks[:copy(lx.toks, lx.toks[12:])]
		}
	}
}

// push and pop keep the open brackets, and the meter's frames with them.
func (lx *lexer) push(kind openKind) {
	if lx.m != nil {
		lx.m.open(lx, kind)
	}
	lx.open = append(lx.open, kind)
}

func (lx *lexer) pop() openKind {
	kind := lx.open[len(lx.open)-1]
	lx.open = lx.open[:len(lx.open)-1]
	if lx.m != nil {
		lx.m.close(kind)
	}
	return kind
}

func (lx *lexer) next() error {
	src := lx.src
	c := src[lx.pos]
	lx.start = lx.pos
	if lx.m != nil {
		lx.operand = lx.regexAllowed()
	}
	switch {
	case c == '"' || c == '\'':
		s, err := lx.quoted(c)
		if err != nil {
			return err
		}
		lx.emit(tokString, s)
	case c == '`':
		lx.pos++
		return lx.template()
	case c >= '0' && c <= '9' || c == '.' && lx.pos+1 < len(src) && src[lx.pos+1] >= '0' && src[lx.pos+1] <= '9':
		lx.number()
	case c == '#':
		lx.pos++
		name, err := lx.identifier()
		if err != nil || name == "" {
			return errLex
		}
		lx.emit(tokPrivate, name)
	case c == '/':
		regex := lx.regexAllowed()
		if lx.force != nil {
			regex, lx.force = *lx.force, nil
		} else if lx.ambiguousSlash() {
			lx.fork(!regex)
		}
		if regex {
			return lx.regex()
		}
		return lx.punct()
	case isIdentStart(src[lx.pos:]):
		name, err := lx.identifier()
		if err != nil {
			return err
		}
		lx.emit(tokIdent, name)
	default:
		return lx.punct()
	}
	return nil
}

func (lx *lexer) punct() error {
	rest := lx.src[lx.pos:]
	for _, p := range []string{"=>", "?.", "++", "--"} {
		if strings.HasPrefix(rest, p) && (p != "?." || len(rest) < 3 || rest[2] < '0' || rest[2] > '9') {
			lx.pos += 2
			lx.emit(tokPunct, p)
			return nil
		}
	}
	r, n := utf8.DecodeRuneInString(rest)
	lx.pos += n
	switch r {
	case '(':
		kind := openParen
		if k := len(lx.toks); k > 0 && lx.toks[k-1].kind == tokIdent && !lx.afterDot(k-1) {
			switch lx.toks[k-1].text {
			case "if", "while", "for", "with":
				kind = openHead
			}
		}
		lx.emit(tokPunct, "(")
		lx.push(kind)
		return nil
	case '[':
		lx.emit(tokPunct, "[")
		lx.push(openBracket)
		return nil
	case '{':
		kind := lx.openBrace()
		lx.emit(tokPunct, "{")
		lx.push(kind)
		return nil
	case ')', ']', '}':
		if len(lx.open) == 0 {
			return errLex
		}
		kind := lx.pop()
		if !closes(r, kind) {
			return errLex // unbalanced: not JavaScript, let the fallback decide
		}
		if kind == openTemplate {
			return lx.template()
		}
		lx.regexOK = kind == openHead || kind == openBlock
	}
	lx.emit(tokPunct, lx.src[lx.pos-n:lx.pos]) // a slice of the source: no allocation per token
	return nil
}

// closes reports whether closer r matches an open bracket of kind k.
func closes(r rune, k openKind) bool {
	switch r {
	case ')':
		return k == openParen || k == openHead
	case ']':
		return k == openBracket
	}
	return k == openBlock || k == openObject || k == openTemplate
}

// template scans template text up to the closing backtick or the next `${`.
// It is entered after the opening backtick or after the `}` of an
// interpolation.
func (lx *lexer) template() error {
	src := lx.src
	var b strings.Builder
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == '\\':
			if lx.pos+1 >= len(src) {
				return errLex
			}
			b.WriteString(src[lx.pos : lx.pos+2])
			lx.pos += 2
		case c == '`':
			lx.pos++
			lx.emit(tokTemplate, b.String())
			lx.toks[len(lx.toks)-1].closes = true
			return nil
		case c == '$' && strings.HasPrefix(src[lx.pos:], "${"):
			lx.pos += 2
			lx.emit(tokTemplate, b.String())
			lx.emit(tokPunct, "${") // an expression starts: a regex may follow
			lx.push(openTemplate)
			return nil
		default:
			b.WriteByte(c)
			lx.pos++
		}
	}
	return errLex
}

func (lx *lexer) quoted(q byte) (string, error) {
	src := lx.src
	start := lx.pos
	lx.pos++
	for lx.pos < len(src) {
		switch src[lx.pos] {
		case q:
			lx.pos++
			return decodeString(src[start+1 : lx.pos-1]), nil
		case '\\':
			lx.pos += 2
			if strings.HasPrefix(src[lx.pos-1:], "\r\n") { // a CRLF line continuation
				lx.pos++
			}
		case '\n', '\r':
			return "", errLex
		default:
			lx.pos++
		}
	}
	return "", errLex
}

func (lx *lexer) regex() error {
	src := lx.src
	lx.pos++ // opening slash
	inClass := false
	for lx.pos < len(src) {
		switch c := src[lx.pos]; {
		case c == '\\':
			lx.pos += 2
			continue
		case c == '\n' || c == '\r':
			return errLex
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			lx.pos++
			for lx.pos < len(src) && isIdentPart(src[lx.pos:]) { // flags
				_, n := utf8.DecodeRuneInString(src[lx.pos:])
				lx.pos += n
			}
			lx.emit(tokRegex, "")
			return nil
		}
		lx.pos++
	}
	return errLex
}

func (lx *lexer) number() {
	src := lx.src
	start := lx.pos
	for lx.pos < len(src) {
		c := src[lx.pos]
		var prev byte
		if lx.pos > start {
			prev = src[lx.pos-1]
		}
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '.':
		case (c == '+' || c == '-') && (prev == 'e' || prev == 'E') && !strings.HasPrefix(src[start:], "0x") && !strings.HasPrefix(src[start:], "0X"):
		default:
			lx.emit(tokNumber, src[start:lx.pos])
			return
		}
		lx.pos++
	}
	lx.emit(tokNumber, src[start:])
}

// identifier reads an identifier and decodes \uXXXX and \u{...} escapes, so
// `r\u0065quire` is seen as require.
func (lx *lexer) identifier() (string, error) {
	start := lx.pos
	for lx.pos < len(lx.src) && isASCIIIdent(lx.src[lx.pos], lx.pos == start) {
		lx.pos++
	}
	if lx.pos == len(lx.src) || lx.src[lx.pos] < utf8.RuneSelf && lx.src[lx.pos] != '\\' {
		return lx.src[start:lx.pos], nil // the common case, without a copy
	}
	lx.pos = start
	var b strings.Builder
	first := true
	for lx.pos < len(lx.src) {
		rest := lx.src[lx.pos:]
		if rest[0] == '\\' {
			r, n, ok := unicodeEscape(rest)
			if !ok {
				return "", errLex
			}
			b.WriteRune(r)
			lx.pos += n
		} else if first && isIdentStart(rest) || !first && isIdentPart(rest) {
			r, n := utf8.DecodeRuneInString(rest)
			b.WriteRune(r)
			lx.pos += n
		} else {
			break
		}
		first = false
	}
	return b.String(), nil
}

func isASCIIIdent(c byte, first bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || !first && c >= '0' && c <= '9'
}

// unicodeEscape decodes a \uXXXX or \u{X...} escape at the start of s.
func unicodeEscape(s string) (rune, int, bool) {
	if !strings.HasPrefix(s, `\u`) {
		return 0, 0, false
	}
	if strings.HasPrefix(s, `\u{`) {
		end := strings.IndexByte(s, '}')
		if end < 4 { // any number of digits: \u{00000061} is a, for esbuild too
			return 0, 0, false
		}
		v, err := strconv.ParseUint(s[3:end], 16, 32)
		if err != nil || v > unicode.MaxRune {
			return 0, 0, false
		}
		return rune(v), end + 1, true
	}
	if len(s) < 6 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[2:6], 16, 32)
	if err != nil {
		return 0, 0, false
	}
	return rune(v), 6, true
}

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '$' || r == '_' || r == '\\' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) ||
		unicode.Is(unicode.Other_ID_Start, r)
}

func isIdentPart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isIdentStart(s) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) ||
		r == '\u200c' || r == '\u200d' || unicode.Is(unicode.Other_ID_Continue, r)
}

// decodeString decodes the escapes of a string literal's body well enough to
// read a property name such as "req\u0075ire"; unknown escapes keep the
// escaped character, as JavaScript does.
func decodeString(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		if r, n, ok := unicodeEscape(s[i:]); ok {
			b.WriteRune(r)
			i += n
			continue
		}
		if s[i+1] == 'x' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 4
				continue
			}
		}
		b.WriteByte(s[i+1])
		i += 2
	}
	return b.String()
}
