package config

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the JSON type of a [Node].
type Kind int

// Node kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Node is one parsed JSON5 value with the position where it starts.
// Line and Col are 1-based; Col counts characters, not bytes.
type Node struct {
	Kind      Kind
	Line, Col int
	Bool      bool
	Num       string // the value as a JSON number literal
	Str       string
	Elems     []*Node
	Members   []Member // in source order; keys are unique
}

// Member is one key of an object.
type Member struct {
	Key       string
	Line, Col int // where the key starts
	Value     *Node
}

// Get returns the value of key in an object node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, m := range n.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// JSON encodes the node as JSON, keeping the key order.
func (n *Node) JSON() json.RawMessage {
	var b strings.Builder
	n.writeJSON(&b)
	return json.RawMessage(b.String())
}

func (n *Node) writeJSON(b *strings.Builder) {
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case Number:
		b.WriteString(n.Num)
	case String:
		writeJSONString(b, n.Str)
	case Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.writeJSON(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, m.Key)
			b.WriteByte(':')
			m.Value.writeJSON(b)
		}
		b.WriteByte('}')
	}
}

func writeJSONString(b *strings.Builder, s string) {
	q, _ := json.Marshal(s) // a Go string always marshals
	b.Write(q)
}

// SyntaxError is a JSON5 text that does not parse.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// maxDepth bounds nesting so a hostile file cannot exhaust the stack.
const maxDepth = 512

// ParseJSON5 parses one JSON5 value (https://spec.json5.org): comments,
// unquoted identifier keys, single-quoted strings, trailing commas,
// hexadecimal numbers, leading or trailing decimal points, explicit plus
// signs and escaped line breaks in strings. Infinity and NaN are refused
// because a config value must have a JSON equivalent; so are duplicate keys,
// which JSON5 allows but which are always a mistake in a config file.
func ParseJSON5(data []byte) (*Node, error) {
	if !utf8.Valid(data) {
		line, col := 1, 1
		for i, r := range string(data) {
			if r == utf8.RuneError {
				if _, size := utf8.DecodeRune(data[i:]); size == 1 {
					break
				}
			}
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return nil, &SyntaxError{line, col, "invalid UTF-8"}
	}
	p := &parser{src: []rune(string(data)), line: 1, col: 1}
	p.skipSpace()
	if p.err != nil {
		return nil, p.err
	}
	n := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.skipSpace()
	if p.err != nil {
		return nil, p.err
	}
	if !p.eof() {
		p.fail("unexpected %s after the value", p.describe())
		return nil, p.err
	}
	return n, nil
}

type parser struct {
	src       []rune
	pos       int
	line, col int
	err       error
}

func (p *parser) eof() bool  { return p.pos >= len(p.src) }
func (p *parser) peek() rune { return p.at(0) }

func (p *parser) at(off int) rune {
	if p.pos+off < len(p.src) {
		return p.src[p.pos+off]
	}
	return -1
}

func (p *parser) next() rune {
	r := p.src[p.pos]
	p.pos++
	if r == '\n' || r == '\u2028' || r == '\u2029' || (r == '\r' && p.peek() != '\n') {
		p.line, p.col = p.line+1, 1
	} else {
		p.col++
	}
	return r
}

func (p *parser) fail(format string, args ...any) *Node {
	if p.err == nil {
		p.err = &SyntaxError{p.line, p.col, fmt.Sprintf(format, args...)}
	}
	return nil
}

func (p *parser) failAt(line, col int, format string, args ...any) *Node {
	if p.err == nil {
		p.err = &SyntaxError{line, col, fmt.Sprintf(format, args...)}
	}
	return nil
}

// describe names the character at the cursor for an error message.
func (p *parser) describe() string {
	if p.eof() {
		return "end of input"
	}
	r := p.peek()
	if unicode.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("character U+%04X", r)
}

func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u2028', '\u2029', '\ufeff':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}

// skipSpace skips white space and comments.
func (p *parser) skipSpace() {
	for !p.eof() {
		r := p.peek()
		switch {
		case isSpace(r):
			p.next()
		case r == '/' && p.at(1) == '/':
			for !p.eof() && !isLineTerminator(p.peek()) {
				p.next()
			}
		case r == '/' && p.at(1) == '*':
			line, col := p.line, p.col
			p.next()
			p.next()
			for {
				if p.eof() {
					p.failAt(line, col, "unterminated /* comment")
					return
				}
				if p.peek() == '*' && p.at(1) == '/' {
					p.next()
					p.next()
					break
				}
				p.next()
			}
		default:
			return
		}
	}
}

func (p *parser) value(depth int) *Node {
	if depth > maxDepth {
		return p.fail("nesting deeper than %d levels", maxDepth)
	}
	if p.eof() {
		return p.fail("unexpected end of input, want a value")
	}
	line, col := p.line, p.col
	r := p.peek()
	switch {
	case r == '{':
		return p.object(depth)
	case r == '[':
		return p.array(depth)
	case r == '"' || r == '\'':
		s, ok := p.str()
		if !ok {
			return nil
		}
		return &Node{Kind: String, Line: line, Col: col, Str: s}
	case r == '-' || r == '+' || r == '.' || (r >= '0' && r <= '9'):
		return p.number()
	case isIdentStart(r) || r == '\\':
		word := p.ident()
		if p.err != nil {
			return nil
		}
		switch word {
		case "null":
			return &Node{Kind: Null, Line: line, Col: col}
		case "true", "false":
			return &Node{Kind: Bool, Line: line, Col: col, Bool: word == "true"}
		case "Infinity", "NaN":
			return p.failAt(line, col, "%s has no JSON equivalent and is not allowed here", word)
		}
		return p.failAt(line, col, "unexpected word %q, want a value (strings need quotes)", word)
	}
	return p.fail("unexpected %s, want a value", p.describe())
}

func (p *parser) object(depth int) *Node {
	n := &Node{Kind: Object, Line: p.line, Col: p.col, Members: []Member{}}
	p.next() // {
	seen := map[string]bool{}
	for {
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		if p.peek() == '}' {
			p.next()
			return n
		}
		line, col := p.line, p.col
		var key string
		switch r := p.peek(); {
		case r == '"' || r == '\'':
			s, ok := p.str()
			if !ok {
				return nil
			}
			key = s
		case isIdentStart(r) || r == '\\':
			key = p.ident()
		default:
			return p.fail("unexpected %s, want a key or '}'", p.describe())
		}
		if p.err != nil {
			return nil
		}
		if seen[key] {
			return p.failAt(line, col, "duplicate key %q", key)
		}
		seen[key] = true
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		if p.peek() != ':' {
			return p.fail("unexpected %s after key %q, want ':'", p.describe(), key)
		}
		p.next()
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		n.Members = append(n.Members, Member{Key: key, Line: line, Col: col, Value: v})
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		switch p.peek() {
		case ',':
			p.next()
		case '}':
			p.next()
			return n
		default:
			return p.fail("unexpected %s in object, want ',' or '}'", p.describe())
		}
	}
}

func (p *parser) array(depth int) *Node {
	n := &Node{Kind: Array, Line: p.line, Col: p.col, Elems: []*Node{}}
	p.next() // [
	for {
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		if p.peek() == ']' {
			p.next()
			return n
		}
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		n.Elems = append(n.Elems, v)
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		switch p.peek() {
		case ',':
			p.next()
		case ']':
			p.next()
			return n
		default:
			return p.fail("unexpected %s in array, want ',' or ']'", p.describe())
		}
	}
}

func isIdentStart(r rune) bool {
	return r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
		unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r) || r == '\u200c' || r == '\u200d'
}

// ident reads an ECMAScript IdentifierName, \uXXXX escapes included.
func (p *parser) ident() string {
	var b strings.Builder
	for !p.eof() {
		line, col := p.line, p.col
		r := p.peek()
		if r == '\\' {
			p.next()
			if p.peek() != 'u' {
				p.failAt(line, col, "invalid escape in a key, only \\uXXXX is allowed")
				return ""
			}
			p.next()
			r = p.hex(4)
			if p.err != nil {
				return ""
			}
			if (b.Len() == 0 && !isIdentStart(r)) || !isIdentPart(r) {
				p.failAt(line, col, "escaped character U+%04X cannot appear in a key", r)
				return ""
			}
			b.WriteRune(r)
			continue
		}
		if (b.Len() == 0 && !isIdentStart(r)) || !isIdentPart(r) {
			break
		}
		b.WriteRune(p.next())
	}
	return b.String()
}

func (p *parser) hex(n int) rune {
	var v rune
	for range n {
		d := hexDigit(p.peek())
		if d < 0 {
			p.fail("want %d hexadecimal digits", n)
			return 0
		}
		p.next()
		v = v<<4 | d
	}
	return v
}

func hexDigit(r rune) rune {
	switch {
	case r >= '0' && r <= '9':
		return r - '0'
	case r >= 'a' && r <= 'f':
		return r - 'a' + 10
	case r >= 'A' && r <= 'F':
		return r - 'A' + 10
	}
	return -1
}

// str reads a single- or double-quoted string.
func (p *parser) str() (string, bool) {
	line, col := p.line, p.col
	quote := p.next()
	var b strings.Builder
	for {
		if p.eof() {
			p.failAt(line, col, "unterminated string")
			return "", false
		}
		r := p.peek()
		switch {
		case r == quote:
			p.next()
			return b.String(), true
		case r == '\n' || r == '\r':
			p.fail("line break in a string (escape it with a backslash)")
			return "", false
		case r == '\\':
			if !p.escape(&b) {
				return "", false
			}
		default:
			b.WriteRune(p.next())
		}
	}
}

func (p *parser) escape(b *strings.Builder) bool {
	line, col := p.line, p.col
	p.next() // backslash
	if p.eof() {
		p.failAt(line, col, "unterminated string")
		return false
	}
	r := p.next()
	switch r {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case '0':
		if d := p.peek(); d >= '0' && d <= '9' {
			p.failAt(line, col, "octal escapes are not allowed")
			return false
		}
		b.WriteByte(0)
	case 'x':
		b.WriteRune(p.hex(2))
	case 'u':
		u := p.hex(4)
		if p.err != nil {
			return false
		}
		if u >= 0xd800 && u < 0xdc00 && p.peek() == '\\' && p.at(1) == 'u' {
			save, sl, sc := p.pos, p.line, p.col
			p.next()
			p.next()
			lo := p.hex(4)
			if p.err != nil {
				return false
			}
			if lo >= 0xdc00 && lo < 0xe000 {
				u = (u-0xd800)<<10 | (lo - 0xdc00) + 0x10000
			} else {
				p.pos, p.line, p.col = save, sl, sc
			}
		}
		b.WriteRune(u) // a lone surrogate becomes U+FFFD
	case '\r':
		if p.peek() == '\n' {
			p.next()
		}
	case '\n', '\u2028', '\u2029':
		// line continuation
	default:
		if r >= '1' && r <= '9' {
			p.failAt(line, col, "invalid escape \\%c", r)
			return false
		}
		b.WriteRune(r)
	}
	return p.err == nil
}

// number reads a JSON5 number and renders it as a JSON number literal.
func (p *parser) number() *Node {
	line, col := p.line, p.col
	neg := false
	if r := p.peek(); r == '+' || r == '-' {
		neg = r == '-'
		p.next()
	}
	if isIdentStart(p.peek()) {
		word := p.ident()
		if word == "Infinity" || word == "NaN" {
			return p.failAt(line, col, "%s has no JSON equivalent and is not allowed here", word)
		}
		return p.failAt(line, col, "invalid number")
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if p.peek() == '0' && (p.at(1) == 'x' || p.at(1) == 'X') {
		p.next()
		p.next()
		start := p.pos
		for hexDigit(p.peek()) >= 0 {
			p.next()
		}
		if p.pos == start {
			return p.failAt(line, col, "invalid hexadecimal number")
		}
		v, _ := new(big.Int).SetString(string(p.src[start:p.pos]), 16)
		if neg {
			v.Neg(v)
		}
		return p.endNumber(&Node{Kind: Number, Line: line, Col: col, Num: v.String()})
	}
	digits := func() string {
		start := p.pos
		for r := p.peek(); r >= '0' && r <= '9'; r = p.peek() {
			p.next()
		}
		return string(p.src[start:p.pos])
	}
	intPart := digits()
	if len(intPart) > 1 && intPart[0] == '0' {
		return p.failAt(line, col, "leading zeros are not allowed in numbers")
	}
	frac := ""
	if p.peek() == '.' {
		p.next()
		frac = digits()
	}
	if intPart == "" && frac == "" {
		return p.failAt(line, col, "invalid number")
	}
	exp := ""
	if r := p.peek(); r == 'e' || r == 'E' {
		p.next()
		es := ""
		if r := p.peek(); r == '+' || r == '-' {
			es = string(p.next())
		}
		ed := digits()
		if ed == "" {
			return p.failAt(line, col, "invalid number exponent")
		}
		exp = "e" + es + ed
	}
	if intPart == "" {
		intPart = "0"
	}
	num := sign + intPart
	if frac != "" {
		num += "." + frac
	}
	num += exp
	return p.endNumber(&Node{Kind: Number, Line: line, Col: col, Num: num})
}

// endNumber refuses a number glued to an identifier character ("12px").
func (p *parser) endNumber(n *Node) *Node {
	if !p.eof() && (isIdentPart(p.peek()) || p.peek() == '.') {
		return p.failAt(n.Line, n.Col, "invalid number")
	}
	return n
}
