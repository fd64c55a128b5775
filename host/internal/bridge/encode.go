package bridge

import (
	"bytes"
	"encoding/json"
	"slices"
	"unsafe"

	"github.com/seed11a79d2d/codemode/abi"
)

// Outcome is the settlement of a request's answer: err's message as a
// rejection, or v's JSON.
//
// v is encoded once, into the bytes the outcome then holds: JSON a tool
// already has (a json.RawMessage, MCP content blocks) is written as it is,
// once checked, and the rest goes through one encoder. A value the fast path
// does not take is encoded by json.Marshal, whose error, if any, the
// rejection words.
func Outcome(v any, err error) abi.Outcome {
	if err != nil {
		return abi.Reject(err.Error())
	}
	var b []byte
	if hasRaw(v) {
		e := encoder{buf: bytes.NewBuffer(make([]byte, 0, 256))}
		if e.value(v) {
			b = e.buf.Bytes()
		}
	}
	if b == nil {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return abi.Reject("tool result is not JSON-compatible: " + err.Error())
	}
	// b is this call's own and is never written again: the outcome's string
	// shares it rather than copying it.
	return abi.Resolve(unsafe.String(unsafe.SliceData(b), len(b)))
}

// hasRaw reports a value of the shapes that carry JSON bytes: the encoder
// writes those as they are. Any other value is one json.Marshal.
func hasRaw(v any) bool {
	switch v.(type) {
	case json.RawMessage, []json.RawMessage, map[string]any:
		return true
	}
	return false
}

type encoder struct {
	buf *bytes.Buffer
	js  *json.Encoder // made for the first value that needs it
}

// value appends v's JSON, or reports false for one that json.Marshal must
// encode (or refuse) as a whole.
func (e *encoder) value(v any) bool {
	switch x := v.(type) {
	case nil:
		e.buf.WriteString("null")
	case bool:
		if x {
			e.buf.WriteString("true")
		} else {
			e.buf.WriteString("false")
		}
	case json.RawMessage:
		if len(x) == 0 || !json.Valid(x) {
			return false
		}
		e.buf.Write(x)
	case []json.RawMessage:
		if x == nil {
			e.buf.WriteString("null")
			return true
		}
		e.buf.WriteByte('[')
		for i, m := range x {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			if !e.value(m) {
				return false
			}
		}
		e.buf.WriteByte(']')
	case map[string]any:
		if x == nil {
			e.buf.WriteString("null")
			return true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			if !plainKey(k) {
				return false
			}
			keys = append(keys, k)
		}
		slices.Sort(keys) // as json.Marshal orders a map
		e.buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			e.buf.WriteByte('"')
			e.buf.WriteString(k)
			e.buf.WriteString(`":`)
			if !e.value(x[k]) {
				return false
			}
		}
		e.buf.WriteByte('}')
	default:
		if e.js == nil {
			e.js = json.NewEncoder(e.buf) // escapes HTML as json.Marshal does
		}
		if e.js.Encode(v) != nil { // it writes nothing when it fails
			return false
		}
		e.buf.Truncate(e.buf.Len() - 1) // Encode ends with a newline
	}
	return true
}

// plainKey is a map key that json.Marshal writes as it is.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
