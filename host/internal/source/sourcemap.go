package source

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"unicode/utf8"
)

// Map maps positions in the JavaScript that [Check] returns for a TypeScript
// cell back to the user's TypeScript. It is built from esbuild's source map;
// columns cross it in UTF-16 units, as source maps count them, and come out
// as 1-based byte columns, as the engine and the transform's diagnostics
// count them. A Map is immutable and safe for concurrent use.
//
// A JavaScript cell gets a Map only when [Check] inserted text into it (a
// trailing expression's `return (`, see tail.go): the map then only takes
// the insertions out. A TypeScript cell's insertions are made before the
// transform, so they are taken out after esbuild's map is applied.
type Map struct {
	lines [][]mapping // by 0-based line of the JavaScript, sorted by column; nil without esbuild
	js    []string    // lines of the JavaScript
	code  []string    // lines of what esbuild transformed: the user's code with the insertions
	ins   []insertion // text Check inserted, sorted, in the coordinates of code (or of js without esbuild)
	// endLine and endCol are the position just after the user's code.
	endLine, endCol int
}

// insertion is n bytes inserted at a 0-based byte column of a 1-based line.
type insertion struct{ line, col, n int }

// mapping is one source-map segment, moved onto the JavaScript's lines.
type mapping struct {
	col     int // 0-based UTF-16 column in the JavaScript
	srcLine int // 1-based line of the user's code; 0 when the segment has no source
	srcCol  int // 0-based UTF-16 column there
}

// newMap decodes esbuild's source map for the wrapped code. The JavaScript
// is esbuild's output with the wrapper's first line (line skip of that
// output) removed; the source's line 0 is the wrapper's, so source line n is
// the user's line n.
func newMap(sourceMap []byte, skip int, js, code string) (*Map, error) {
	var sm struct {
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(sourceMap, &sm); err != nil {
		return nil, err
	}
	m := &Map{js: strings.Split(js, "\n"), code: strings.Split(code, "\n")}
	m.endLine, m.endCol = endOf(code)
	m.lines = make([][]mapping, len(m.js))
	var line, src, srcLine, srcCol, name int // running values; src and name unused
	for _, group := range strings.Split(sm.Mappings, ";") {
		col := 0
		at := line // the JavaScript's line for esbuild's line
		switch {
		case line == skip:
			at = -1
		case line > skip:
			at--
		}
		line++
		for _, seg := range strings.Split(group, ",") {
			if seg == "" {
				continue
			}
			var f [5]int
			n := 0
			for seg != "" {
				if n == len(f) {
					return nil, errors.New("source map segment has too many fields")
				}
				v, rest, err := vlq(seg)
				if err != nil {
					return nil, err
				}
				f[n], seg = v, rest
				n++
			}
			col += f[0]
			mp := mapping{col: col}
			switch n {
			case 1:
			case 4, 5:
				src, srcLine, srcCol, name = src+f[1], srcLine+f[2], srcCol+f[3], name+f[4]
				if srcLine >= 1 && srcLine <= len(m.code) { // not the wrapper's lines
					mp.srcLine, mp.srcCol = srcLine, srcCol
				}
			default:
				return nil, errors.New("source map segment has a bad field count")
			}
			if at >= 0 && at < len(m.lines) {
				m.lines[at] = append(m.lines[at], mp)
			}
		}
	}
	for _, l := range m.lines {
		sort.SliceStable(l, func(i, j int) bool { return l[i].col < l[j].col })
	}
	return m, nil
}

const base64Digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlq decodes one base64 VLQ number from the front of s.
func vlq(s string) (int, string, error) {
	v, shift := 0, 0
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(base64Digits, s[i])
		if d < 0 || shift > 28 {
			return 0, "", errors.New("source map has a bad VLQ digit")
		}
		v |= (d & 31) << shift
		shift += 5
		if d&32 == 0 {
			if v&1 != 0 {
				return -(v >> 1), s[i+1:], nil
			}
			return v >> 1, s[i+1:], nil
		}
	}
	return 0, "", errors.New("source map has a truncated VLQ number")
}

// insertedMap is the Map of JavaScript that is the user's code with the
// insertions ins made into it.
func insertedMap(js string, ins []insertion, code string) *Map {
	m := &Map{js: strings.Split(js, "\n"), ins: ins}
	m.endLine, m.endCol = endOf(code)
	return m
}

// endOf is the 1-based line and byte column just after code.
func endOf(code string) (int, int) {
	last := code[strings.LastIndexByte(code, '\n')+1:]
	return strings.Count(code, "\n") + 1, len(last) + 1
}

// Position returns the user's line and byte column (both 1-based) for a line
// and byte column of the JavaScript. ok is false where the JavaScript is not
// the user's code, such as helpers and declarations esbuild adds; line and
// column then name the nearest user code before it, or 1:1. A position in
// text Check inserted is the user's code it was inserted at.
func (m *Map) Position(line, col int) (userLine, userCol int, ok bool) {
	if m.lines == nil {
		if line < 1 || line > len(m.js) {
			return m.endLine, m.endCol, false
		}
		return line, m.uninsert(line, col), true
	}
	userLine, userCol, ok = m.mapped(line, col)
	return userLine, m.uninsert(userLine, userCol), ok
}

// uninsert takes the insertions out of a 1-based byte column of a line.
func (m *Map) uninsert(line, col int) int {
	c := col - 1
	for i := len(m.ins) - 1; i >= 0; i-- {
		switch in := m.ins[i]; {
		case in.line != line || c < in.col:
		case c >= in.col+in.n:
			c -= in.n
		default:
			c = in.col
		}
	}
	return c + 1
}

// mapped applies esbuild's map.
func (m *Map) mapped(line, col int) (int, int, bool) {
	if line < 1 || line > len(m.lines) {
		return m.before(len(m.lines) - 1)
	}
	segs := m.lines[line-1]
	u := utf16Col(m.js[line-1], col-1)
	i := sort.Search(len(segs), func(i int) bool { return segs[i].col > u }) - 1
	if i < 0 { // before the line's first segment, as in its indentation
		i = 0
	}
	if i >= len(segs) || segs[i].srcLine == 0 {
		return m.before(line - 2)
	}
	s := segs[i]
	return s.srcLine, byteCol(m.code[s.srcLine-1], s.srcCol) + 1, true
}

// before finds the last mapped position on or above the 0-based line.
func (m *Map) before(line int) (int, int, bool) {
	for ; line >= 0; line-- {
		segs := m.lines[min(line, len(m.lines)-1)]
		for i := len(segs) - 1; i >= 0; i-- {
			if s := segs[i]; s.srcLine != 0 {
				return s.srcLine, byteCol(m.code[s.srcLine-1], s.srcCol) + 1, false
			}
		}
	}
	return 1, 1, false
}

// TypeScript reports whether the JavaScript is the transform of TypeScript:
// the host says so in telemetry when the request did not name the language
// (a ts fence, or TypeScript sent as JavaScript).
func (m *Map) TypeScript() bool { return m != nil && m.lines != nil }

// End is the position just after the user's code.
func (m *Map) End() (line, col int) {
	return m.endLine, m.endCol
}

// utf16Col converts a 0-based byte column of s into UTF-16 units.
func utf16Col(s string, b int) int {
	b = max(0, min(b, len(s)))
	n := 0
	for _, r := range s[:b] {
		n += utf16Len(r)
	}
	return n
}

// byteCol converts a 0-based UTF-16 column of s into bytes.
func byteCol(s string, u int) int {
	for i, r := range s {
		if u <= 0 {
			return i
		}
		u -= utf16Len(r)
	}
	return len(s)
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
