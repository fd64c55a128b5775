package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// u16len returns the length of s in UTF-16 code units, the unit JavaScript
// string lengths are counted in. Invalid UTF-8 bytes count as one unit each
// (they become U+FFFD when the string crosses into the guest).
func u16len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// truncate16 cuts s to at most max UTF-16 units, never splitting a rune. When
// it cuts, it appends ellipsis and keeps the total within max.
func truncate16(s string, max int, ellipsis string) string {
	if u16len(s) <= max {
		return s
	}
	limit := max - u16len(ellipsis)
	if limit < 0 {
		limit = 0
	}
	n := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > limit {
			return s[:i] + ellipsis
		}
		n += w
	}
	return s + ellipsis
}

// compare16 orders strings by UTF-16 code units, like JavaScript's default
// Array.prototype.sort. It differs from byte order only between characters in
// U+E000..U+FFFF and characters beyond U+FFFF.
func compare16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ka, kb := sortKey16(ra), sortKey16(rb)
			if ka != kb {
				if ka < kb {
					return -1
				}
				return 1
			}
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

// sortKey16 maps a rune to a key whose order is the order of its first UTF-16
// unit, with supplementary runes ordered among themselves by code point.
func sortKey16(r rune) uint32 {
	if r < 0x10000 {
		return uint32(r) << 20
	}
	hi := 0xD800 + (uint32(r-0x10000) >> 10)
	return hi<<20 | uint32(r-0x10000)&0xFFFFF
}

// jsonQuote renders s as a JSON string literal, which is also a valid
// JavaScript and TypeScript string literal. Line terminators, including
// U+2028 and U+2029, are escaped, so the result never spans lines.
func jsonQuote(s string) string {
	// Printable ASCII other than quote and backslash is never escaped; most
	// enum values and property names take this path and skip the encoder.
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\'
	}
	if plain {
		return `"` + s + `"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}

// isIdentifier reports whether s matches ^[A-Za-z_$][A-Za-z0-9_$]*$.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// jsNumber formats a finite float64 the way JavaScript's Number#toString does.
func jsNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[:1]
		digits := strings.TrimLeft(exp[1:], "0")
		if digits == "" {
			digits = "0"
		}
		return mant + "e" + sign + digits
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// parseNumber converts a decoded JSON number to a finite float64.
func parseNumber(n json.Number) (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// commentSafe makes s safe to place inside a /* ... */ comment on one line:
// it repairs invalid UTF-8, turns line terminators and other control
// characters into spaces, collapses runs of whitespace and escapes "*/".
func commentSafe(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7F || r == '\u2028' || r == '\u2029' || r == '\u0085' || r == ' ' || r == '\u00A0' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return strings.ReplaceAll(b.String(), "*/", "*\\/")
}

// splitLines splits s at every JavaScript line terminator.
func splitLines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
	})
}
