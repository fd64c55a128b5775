// Package shape learns the shape of the JSON values a tool returns: which
// types each place holds, the keys of objects and whether every value had
// them, the shape of array elements. It keeps no value, no string, no number
// and no array length, only structure, so a shape can be shown to any model
// that may call the tool. Shapes are bounded in depth and width, merge over
// calls, and render as a TypeScript type.
package shape

import (
	"encoding/json"
	"sort"
	"strings"
)

// Bounds of a shape; what lies past them is summarised, never kept.
const (
	MaxDepth = 6   // nesting levels below the root
	MaxKeys  = 24  // keys kept per object; more make it open
	MaxChars = 600 // the rendered type's length
)

// Kinds of JSON value, as bits.
const (
	Null = 1 << iota
	Bool
	Number
	String
	Array
	Object
)

// Shape is what the values seen at one place had in common. Its JSON form
// is how it persists.
type Shape struct {
	Kinds  uint8             `json:"k"`
	Seen   int               `json:"n"`           // values observed here
	Elem   *Shape            `json:"e,omitempty"` // array elements
	Fields map[string]*Shape `json:"f,omitempty"` // object keys; a field's Seen counts the objects that had it
	Objs   int               `json:"o,omitempty"` // objects observed here
	Open   bool              `json:"x,omitempty"` // keys or depth were dropped
}

// Of is the shape of one JSON value; a value that is not JSON has none.
func Of(raw []byte) *Shape {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	s := &Shape{}
	s.observe(v, 0)
	return s
}

func (s *Shape) observe(v any, depth int) {
	s.Seen++
	switch v := v.(type) {
	case nil:
		s.Kinds |= Null
	case bool:
		s.Kinds |= Bool
	case float64:
		s.Kinds |= Number
	case string:
		s.Kinds |= String
	case []any:
		s.Kinds |= Array
		if depth >= MaxDepth {
			s.Open = len(v) > 0 || s.Open
			return
		}
		for _, e := range v {
			if s.Elem == nil {
				s.Elem = &Shape{}
			}
			s.Elem.observe(e, depth+1)
		}
	case map[string]any:
		s.Kinds |= Object
		s.Objs++
		if depth >= MaxDepth {
			s.Open = len(v) > 0 || s.Open
			return
		}
		// Keys in sorted order, so which are kept past MaxKeys does not
		// depend on map iteration.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if f := s.field(k); f != nil {
				f.observe(v[k], depth+1)
			}
		}
	}
}

// validKey keeps keys that are names, not data: an identifier (dashes
// allowed) of at most 64 bytes with no run of four digits. Anything else
// (an email, a path, a date, an id used as a key) makes the object open
// instead, so no value reaches a shape through its keys.
func validKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	digits := 0
	for i, r := range k {
		switch {
		case r >= '0' && r <= '9':
			if i == 0 {
				return false
			}
			if digits++; digits == 4 {
				return false
			}
			continue
		case r == '_' || r == '$' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		default:
			return false
		}
		digits = 0
	}
	return true
}

// Merge adds what o saw to s: the shape of every value either saw.
func (s *Shape) Merge(o *Shape) {
	if o == nil {
		return
	}
	s.Kinds |= o.Kinds
	s.Seen += o.Seen
	s.Objs += o.Objs
	s.Open = s.Open || o.Open
	if o.Elem != nil {
		if s.Elem == nil {
			s.Elem = &Shape{}
		}
		s.Elem.Merge(o.Elem)
	}
	for _, k := range sortedKeys(o.Fields) {
		if f := s.field(k); f != nil {
			f.Merge(o.Fields[k])
		}
	}
}

// field is the shape of key k, made when the object has room for it; nil,
// and the object open, when it has not or k looks like data.
func (s *Shape) field(k string) *Shape {
	if f, ok := s.Fields[k]; ok {
		return f
	}
	if len(s.Fields) >= MaxKeys || !validKey(k) {
		s.Open = true
		return nil
	}
	if s.Fields == nil {
		s.Fields = map[string]*Shape{}
	}
	f := &Shape{}
	s.Fields[k] = f
	return f
}

func sortedKeys(m map[string]*Shape) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TS renders the shape as a TypeScript type: a key not every object had is
// optional, an open object ends with an index signature, and a type longer
// than MaxChars is cut to "unknown" below the root.
func (s *Shape) TS() string {
	if s == nil || s.Kinds == 0 {
		return "unknown"
	}
	for depth := MaxDepth; depth >= 0; depth-- {
		if t := s.ts(depth); len(t) <= MaxChars {
			return t
		}
	}
	return "unknown"
}

func (s *Shape) ts(depth int) string {
	var alts []string
	if s.Kinds&Object != 0 {
		alts = append(alts, s.object(depth))
	}
	if s.Kinds&Array != 0 {
		elem := "unknown"
		if s.Elem != nil && depth > 0 {
			elem = s.Elem.ts(depth - 1)
		}
		if strings.Contains(elem, " | ") {
			elem = "(" + elem + ")"
		}
		alts = append(alts, elem+"[]")
	}
	for _, k := range []struct {
		bit  uint8
		name string
	}{{String, "string"}, {Number, "number"}, {Bool, "boolean"}, {Null, "null"}} {
		if s.Kinds&k.bit != 0 {
			alts = append(alts, k.name)
		}
	}
	return strings.Join(alts, " | ")
}

func (s *Shape) object(depth int) string {
	if depth == 0 || len(s.Fields) == 0 {
		return "Record<string, unknown>"
	}
	var b strings.Builder
	b.WriteString("{ ")
	for _, k := range sortedKeys(s.Fields) {
		f := s.Fields[k]
		name := k
		if !isIdentifier(k) {
			q, _ := json.Marshal(k)
			name = string(q)
		}
		b.WriteString(name)
		if f.Seen < s.Objs {
			b.WriteString("?")
		}
		b.WriteString(": " + f.ts(depth-1) + "; ")
	}
	if s.Open {
		b.WriteString("[key: string]: unknown; ")
	}
	b.WriteString("}")
	return b.String()
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return s != ""
}
