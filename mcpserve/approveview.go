package mcpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Bounds of what an approval prompt shows. The person approves what they
// read, so nothing is cut: an input whose view is longer than maxView, or
// nested deeper than maxViewDepth, is declined without asking.
const (
	maxView      = 8 << 10
	maxViewDepth = 32
)

// inputView is a call's input as the person at the client reads it: its
// JSON as the tool gets it (keys in their order, numbers as written),
// secret-looking values shown as ⟨hidden⟩, and strings made legible (see
// quoteView). The error, when it cannot be shown whole, says why; the
// model reads it in the refusal.
func inputView(input json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		return "no input", nil
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	v := &viewer{dec: dec}
	err := v.value(0)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errNotJSON
		}
	}
	if err != nil {
		if errors.Is(err, errView) {
			return "", err
		}
		return "", errNotJSON
	}
	if v.n > maxView {
		return "", fmt.Errorf("%w: it is too long to show the person whole (a %d-byte view: %d bytes past the %d an approval shows would not be shown); a call that needs approval must have an input a person can read in full",
			errView, v.n, v.n-maxView, maxView)
	}
	return v.b.String(), nil
}

var (
	errView    = errors.New("its input cannot be shown for approval")
	errNotJSON = fmt.Errorf("%w: it is not one JSON value", errView)
)

// viewer writes the view of the decoder's value, keeping at most maxView+1
// bytes but counting them all, so a refusal says how much would be cut.
type viewer struct {
	dec *json.Decoder
	b   strings.Builder
	n   int
}

func (v *viewer) write(s string) {
	if v.b.Len() <= maxView {
		v.b.WriteString(s[:min(len(s), maxView+1-v.b.Len())])
	}
	v.n += len(s)
}

func (v *viewer) value(depth int) error {
	tok, err := v.dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxViewDepth {
			return fmt.Errorf("%w: it nests deeper than %d levels, more than a person can check", errView, maxViewDepth)
		}
		if t == '[' {
			v.write("[")
			for i := 0; v.dec.More(); i++ {
				if i > 0 {
					v.write(",")
				}
				if err := v.value(depth + 1); err != nil {
					return err
				}
			}
			v.write("]")
			_, err := v.dec.Token() // ], or the error of a truncated input
			return err
		}
		return v.object(depth)
	case string:
		v.write(quoteView(t))
	case json.Number:
		v.write(t.String())
	case bool:
		v.write(strconv.FormatBool(t))
	case nil:
		v.write("null")
	}
	return nil
}

// object views an object's members in order. A repeated key is refused:
// tools disagree on which of its values counts, so the person could not
// tell what they approve.
func (v *viewer) object(depth int) error {
	v.write("{")
	seen := map[string]bool{}
	for i := 0; v.dec.More(); i++ {
		tok, err := v.dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		if seen[k] {
			return fmt.Errorf("%w: it repeats the key %s, so the person cannot tell which value the tool uses", errView, quoteView(k))
		}
		seen[k] = true
		if i > 0 {
			v.write(",")
		}
		v.write(quoteView(k) + ":")
		if !secretKey(k) {
			if err := v.value(depth + 1); err != nil {
				return err
			}
			continue
		}
		var skip json.RawMessage
		if err := v.dec.Decode(&skip); err != nil {
			return err
		}
		v.write("⟨hidden⟩")
	}
	v.write("}")
	_, err := v.dec.Token()
	return err
}

// quoteView quotes s for a person: JSON escapes for quotes, backslashes,
// control characters and every character that shows as nothing or as
// blank space (zero-width and bidirectional controls, non-ASCII spaces,
// variation selectors, fillers), combining marks past the second on one
// letter (they pile up over neighbouring text), and ⟨, which begins the
// view's own notes; a run of one character (8 spaces or escaped characters,
// 16 others) becomes a note of its length: ⟨300 spaces⟩, ⟨40 × \u200b⟩.
func quoteView(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	marks := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n := 1
		for i+n*size < len(s) && strings.HasPrefix(s[i+n*size:], s[i:i+size]) {
			n++
		}
		mark := unicode.In(r, unicode.Mn, unicode.Me)
		hide := invisible(r)
		threshold := 16
		if hide || r == ' ' {
			threshold = 8
		}
		if n >= threshold {
			if r == ' ' {
				fmt.Fprintf(&b, "⟨%d spaces⟩", n)
			} else if hide || mark {
				fmt.Fprintf(&b, "⟨%d × %s⟩", n, escapeRune(r))
			} else {
				fmt.Fprintf(&b, "⟨%d × %c⟩", n, r)
			}
			i, marks = i+n*size, 0
			continue
		}
		if mark {
			marks++
		} else {
			marks = 0
		}
		if hide || marks > 2 {
			b.WriteString(escapeRune(r))
		} else {
			b.WriteRune(r)
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// invisible reports the characters quoteView always escapes.
func invisible(r rune) bool {
	switch r {
	case '"', '\\', '⟨', '\u2800': // U+2800 is a blank braille pattern
		return true
	case ' ':
		return false
	}
	return !unicode.IsGraphic(r) || unicode.In(r, unicode.Zs, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// escapeRune is r as a JSON escape (a surrogate pair past the BMP).
func escapeRune(r rune) string {
	switch r {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		return fmt.Sprintf(`\u%04x\u%04x`, r1, r2)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
