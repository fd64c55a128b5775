package catalog

import (
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONDepth matches encoding/json's nesting limit.
const maxJSONDepth = 10000

// decodeJSON decodes one JSON value into map[string]any, []any, string,
// json.Number, bool or nil, like encoding/json with UseNumber, but several
// times faster for schemas: strings without escapes and numbers share the
// input's memory. Invalid UTF-8 in strings becomes U+FFFD; duplicate keys
// keep the last value. ok is false for anything that is not exactly one
// valid JSON value (surrounding whitespace allowed).
func decodeJSON(raw []byte) (v any, ok bool) {
	p := jsonParser{s: string(raw)}
	p.space()
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(p.s)
}

// decodeSchema decodes like decodeJSON, except that objects become
// *jsonObject. Hint rendering decodes every trusted schema of a run, and a
// small slice per object costs far less to build and to search than a map.
func decodeSchema(raw []byte) (v any, ok bool) {
	p := jsonParser{s: string(raw), ordered: true}
	// Opening braces bound the number of objects, so the slab is allocated
	// once.
	p.objs = make([]jsonObject, 0, strings.Count(p.s, "{"))
	p.space()
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(p.s)
}

// jsonObject is a JSON object as its members in document order, duplicate
// keys included.
type jsonObject []jsonMember

type jsonMember struct {
	key   string
	value any
}

// get returns the value of key k. The last duplicate wins, as in
// encoding/json. Schema objects are small, so a linear scan beats hashing.
func (o jsonObject) get(k string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == k {
			return o[i].value, true
		}
	}
	return nil, false
}

func (o jsonObject) has(k string) bool {
	_, ok := o.get(k)
	return ok
}

type jsonParser struct {
	s       string
	i       int
	ordered bool // objects as *jsonObject rather than map[string]any

	// objs is the slab the ordered objects live in: a pointer into it goes
	// into an interface without the allocation a slice header would cost.
	objs []jsonObject
}

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, bool) {
	if p.i >= len(p.s) || depth > maxJSONDepth {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, ok := p.str()
		return boxString(s), ok
	case c == 't':
		return true, p.word("true")
	case c == 'f':
		return false, p.word("false")
	case c == 'n':
		return nil, p.word("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

// commonStrings are string values that schemas repeat over and over,
// already in interfaces.
var commonStrings = [...]any{"string", "object", "integer", "number", "array", "boolean", "null"}

// boxString puts s in an interface, reusing a common one where it can:
// boxing a string allocates, and most string values of a schema are type
// names.
func boxString(s string) any {
	for _, c := range commonStrings {
		if c.(string) == s {
			return c
		}
	}
	return s
}

func (p *jsonParser) word(w string) bool {
	if !strings.HasPrefix(p.s[p.i:], w) {
		return false
	}
	p.i += len(w)
	return true
}

func (p *jsonParser) object(depth int) (any, bool) {
	if p.ordered {
		return p.orderedObject(depth)
	}
	m := make(map[string]any, 4)
	if !p.members(depth, func(k string, v any) { m[k] = v }) {
		return nil, false
	}
	return m, true
}

// orderedObject decodes an object as a *jsonObject.
func (p *jsonParser) orderedObject(depth int) (any, bool) {
	o := make(jsonObject, 0, 4)
	if !p.members(depth, func(k string, v any) { o = append(o, jsonMember{k, v}) }) {
		return nil, false
	}
	if len(p.objs) == cap(p.objs) {
		p.objs = make([]jsonObject, 0, 8) // earlier slabs stay alive through their pointers
	}
	p.objs = append(p.objs, o)
	return &p.objs[len(p.objs)-1], true
}

// members decodes the members of an object, calling add for each in order.
func (p *jsonParser) members(depth int, add func(k string, v any)) bool {
	p.i++ // {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return true
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		// Keys stay strings: boxing each one in an interface would cost an
		// allocation per member.
		k, ok := p.str()
		if !ok {
			return false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return false
		}
		add(k, v)
		p.space()
		if p.i >= len(p.s) {
			return false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return true
		default:
			return false
		}
	}
}

func (p *jsonParser) array(depth int) (any, bool) {
	p.i++ // [
	list := []any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return list, true
	}
	for {
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return list, true
		default:
			return nil, false
		}
	}
}

func (p *jsonParser) str() (string, bool) {
	p.i++ // opening quote
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			if !utf8.ValidString(s) {
				s = validUTF8(s)
			}
			return s, true
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// escaped finishes a string that holds escapes, starting over at start.
func (p *jsonParser) escaped(start int) (string, bool) {
	var b strings.Builder
	b.WriteString(validUTF8(p.s[start:p.i]))
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), true
		case c < 0x20:
			return "", false
		case c != '\\':
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r) // an invalid byte decodes as U+FFFD
			p.i += size
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", false
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
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
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if strings.HasPrefix(p.s[p.i:], `\u`) {
					save := p.i
					p.i += 2
					if r2, ok = p.hex4(); !ok {
						return "", false
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b.WriteRune(d)
						continue
					}
					p.i = save
				}
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return "", false
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

func (p *jsonParser) number() (any, bool) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return json.Number(p.s[start:p.i]), true
}

// validUTF8 replaces each invalid byte of s with U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // ranging decodes each invalid byte as U+FFFD
	}
	return b.String()
}
