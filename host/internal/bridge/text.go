package bridge

import (
	"encoding/json"
	"unicode/utf8"
)

// Quote is s as a JavaScript string literal (a JSON string is one): how the
// host writes text into a cell's source.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Truncate cuts s to at most n bytes on a rune boundary, marking the cut:
// how the host bounds what a guest sent before it echoes it.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
