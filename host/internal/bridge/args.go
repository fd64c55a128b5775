package bridge

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// Args are the members of the host prelude's payloads, decoded once when the
// guest makes the request. The byte members alias the decoded payload (the
// cell's copy, never written to): a request carries no second copy of its
// input.
type Args struct {
	Query   Raw `json:"query"`
	Options struct {
		Limit Raw `json:"limit"`
	} `json:"options"`
	ID       ID     `json:"id"`
	Input    Raw    `json:"input"`
	Server   Name   `json:"server"`
	Name     Name   `json:"name"`
	Method   string `json:"method"`
	Params   Raw    `json:"params"`
	Selector string `json:"selector"`
	Schema   bool   `json:"schema"`
	Path     string `json:"path"`
}

// Decode decodes a payload of an op whose Payload is Args. An error means a
// payload that is no JSON object of those members: the request is refused.
func Decode(payload string) (Args, error) {
	var a Args
	err := json.Unmarshal([]byte(payload), &a)
	return a, err
}

// Raw is a member kept as JSON: absent is empty, null is "null", as
// json.RawMessage keeps them.
type Raw []byte

// UnmarshalJSON keeps b without a copy: Decode owns the bytes it decodes.
func (r *Raw) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// ID is a member that must be a string (an id, or a unique name): Set when
// it was present, String when it was a string or null (which reads as ""),
// Len the length of its JSON, which bounds what is resolved.
type ID struct {
	Value  string
	Len    int
	Set    bool
	String bool
}

// UnmarshalJSON never fails: the resolver words the refusal of an id that is
// not a string.
func (id *ID) UnmarshalJSON(b []byte) error {
	id.Set, id.Len = true, len(b)
	id.Value, id.String = text(b)
	return nil
}

// Name is an optional string member: Set when present and not null. Any
// other JSON fails the decode, as a *string would.
type Name struct {
	Value string
	Set   bool
}

// UnmarshalJSON reads a string or null.
func (n *Name) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Name{}
		return nil
	}
	v, ok := text(b)
	if !ok {
		return errNotString
	}
	*n = Name{Value: v, Set: true}
	return nil
}

var errNotString = errors.New("bridge: a name member is not a string")

// text is the string of a JSON string literal (or null, as ""), and
// whether b was one. A plain literal, the common case, is read without the
// decoder.
func text(b []byte) (string, bool) {
	if plain(b) {
		return string(b[1 : len(b)-1]), true
	}
	var s string
	return s, json.Unmarshal(b, &s) == nil
}

// plain reports a string literal without escapes, control characters or
// invalid UTF-8: its text is its bytes.
func plain(b []byte) bool {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return false
	}
	for _, c := range b[1 : len(b)-1] {
		if c == '\\' || c == '"' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(b)
}

// Keys calls each with the top-level keys of raw, a JSON object, in order,
// and reports whether raw is one. raw comes out of a decode, so it is valid
// JSON; anything else reports false. A key with escapes is passed decoded.
func Keys(raw []byte, each func(key string)) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return skipSpace(raw, i+1) == len(raw)
	}
	for i < len(raw) {
		end := stringEnd(raw, i)
		if end < 0 {
			return false
		}
		key, ok := text(raw[i:end])
		if !ok {
			return false
		}
		each(key)
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return false
		}
		if i = valueEnd(raw, skipSpace(raw, i+1)); i < 0 {
			return false
		}
		i = skipSpace(raw, i)
		switch {
		case i < len(raw) && raw[i] == ',':
			i = skipSpace(raw, i+1)
		case i < len(raw) && raw[i] == '}':
			return skipSpace(raw, i+1) == len(raw)
		default:
			return false
		}
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index after the string literal at b[i], or -1.
func stringEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// valueEnd is the index after the JSON value at b[i], or -1: strings are
// skipped whole, so brackets inside them do not count.
func valueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			if i = stringEnd(b, i); i < 0 {
				return -1
			}
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // the end of the object or array around a scalar
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	if depth == 0 {
		return i
	}
	return -1
}
