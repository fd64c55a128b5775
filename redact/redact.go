// Package redact replaces credentials in text and JSON with a marker that
// names their kind, "[REDACTED:github-token]": cloud keys, API tokens,
// private key blocks, JSON Web Tokens, credentials in URLs and
// Authorization values, and the literal secrets of the configuration
// itself. Tool results pass through it before a cell sees them, and cell
// output before the model does.
//
// It is a net, not a proof: it knows formats with a recognisable shape,
// and a secret without one is caught only when it is configured. Matching
// is RE2 (package regexp), linear in the input, so hostile text costs time
// in proportion to its size and no more.
package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// MinSecretBytes is the shortest configured secret redacted: a shorter one
// ("on", "1234") would turn ordinary text into markers.
const MinSecretBytes = 8

// KindConfigSecret names a match of a configured secret, and
// KindPrivateKey a PEM private key block.
const (
	KindConfigSecret = "config-secret"
	KindPrivateKey   = "private-key"
)

// Options configure [New].
type Options struct {
	// Secrets are literal values redacted wherever they occur: the
	// configuration's tokens, keys and passwords. Values shorter than
	// [MinSecretBytes] are ignored.
	Secrets []string
	// Count, when set, is told how many matches of each kind one call
	// replaced, for telemetry. Kinds are the fixed set [Kinds] lists.
	Count func(kind string, n int)
}

// Redactor finds and replaces credentials. A nil *Redactor leaves
// everything as it is. It is safe for concurrent use.
type Redactor struct {
	secrets []string // longest first, so a secret holding another goes whole
	count   func(kind string, n int)
}

// New returns a Redactor with the built-in rules and o's secrets.
func New(o Options) *Redactor {
	x := &Redactor{count: o.Count}
	for _, s := range o.Secrets {
		if len(s) >= MinSecretBytes && !slices.Contains(x.secrets, s) {
			x.secrets = append(x.secrets, s)
		}
	}
	slices.SortFunc(x.secrets, func(a, b string) int { return len(b) - len(a) })
	return x
}

// Kinds lists every kind a Redactor names, sorted.
func Kinds() []string {
	out := []string{KindConfigSecret, KindPrivateKey}
	for _, ru := range rules {
		if !slices.Contains(out, ru.kind) {
			out = append(out, ru.kind)
		}
	}
	slices.Sort(out)
	return out
}

// Marker is what replaces a match of kind.
func Marker(kind string) string { return "[REDACTED:" + kind + "]" }

// span is one match to replace: s[start:end].
type span struct {
	start, end int
	kind       string
}

// String returns s with every match replaced; s itself when there is none.
func (x *Redactor) String(s string) string {
	if x == nil || s == "" {
		return s
	}
	spans := x.find(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	counts := map[string]int{}
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString(Marker(sp.kind))
		last = sp.end
		counts[sp.kind]++
	}
	b.WriteString(s[last:])
	if x.count != nil {
		for k, n := range counts {
			x.count(k, n)
		}
	}
	return b.String()
}

// JSON returns the JSON text js with every string value redacted; js
// itself when nothing matched. Text that is not JSON is redacted as text.
func (x *Redactor) JSON(js []byte) []byte {
	if x == nil || len(js) == 0 {
		return js
	}
	// Most results hold nothing to find: with no escape in the text (which
	// could spell a secret in \u form) the raw text is what a decoder would
	// see, and one look at it settles that.
	if bytes.IndexByte(js, '\\') < 0 && !x.mayMatch(string(js)) {
		return js
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return []byte(x.String(string(js)))
	}
	v, changed := x.value(v)
	if !changed {
		return js
	}
	out, err := json.Marshal(v)
	if err != nil { // cannot happen for decoded JSON; never hand back the secret
		return []byte(x.String(string(js)))
	}
	return out
}

// Value returns v (a JSON-compatible Go value: what encoding/json makes
// of a document, or maps and slices of such) with every string redacted,
// and whether anything was.
func (x *Redactor) Value(v any) (any, bool) {
	if x == nil {
		return v, false
	}
	return x.value(v)
}

func (x *Redactor) value(v any) (any, bool) {
	switch t := v.(type) {
	case string:
		r := x.String(t)
		return r, len(r) != len(t) || r != t
	case []any:
		changed := false
		for i, e := range t {
			var c bool
			if t[i], c = x.value(e); c {
				changed = true
			}
		}
		return t, changed
	case map[string]any:
		changed := false
		for k, e := range t {
			if r, c := x.value(e); c {
				t[k], changed = r, true
			}
		}
		return t, changed
	case json.RawMessage:
		r := x.JSON(t)
		return json.RawMessage(r), !bytes.Equal(r, t)
	}
	return v, false
}

// mayMatch reports whether any rule's keys or any secret occur in s.
func (x *Redactor) mayMatch(s string) bool {
	for _, at := range occurrences(s) {
		if len(at) > 0 {
			return true
		}
	}
	if strings.Contains(s, "PRIVATE KEY") {
		return true
	}
	for _, sec := range x.secrets {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// keyRef is one rule's key, filed under the byte it starts with (both
// cases, for a folded rule).
type keyRef struct {
	key  string
	rule int
	fold bool
}

var keyIndex = func() (idx [256][]keyRef) {
	for ri, ru := range rules {
		for _, k := range ru.keys {
			idx[k[0]] = append(idx[k[0]], keyRef{k, ri, ru.fold})
			if up := k[0] &^ 0x20; ru.fold && up != k[0] && up >= 'A' && up <= 'Z' {
				idx[up] = append(idx[up], keyRef{k, ri, true})
			}
		}
	}
	return idx
}()

// occurrences finds, in one pass over s, where each rule's keys start:
// one list of positions per rule, ascending; nil when no key occurs.
func occurrences(s string) [][]int {
	var occ [][]int
	for i := 0; i < len(s); i++ {
		for _, r := range keyIndex[s[i]] {
			// The second byte first: it settles most misses without a call.
			if len(r.key) > 1 && i+1 < len(s) {
				c := s[i+1]
				if r.fold && c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				if c != r.key[1] {
					continue
				}
			}
			if !hasKey(s[i:], r.key, r.fold) {
				continue
			}
			if occ == nil {
				occ = make([][]int, len(rules))
			}
			if n := len(occ[r.rule]); n == 0 || occ[r.rule][n-1] != i {
				occ[r.rule] = append(occ[r.rule], i)
			}
		}
	}
	return occ
}

// hasKey reports whether s starts with key; with fold, ASCII letters of s
// match key's (lowercase) letters in either case.
func hasKey(s, key string, fold bool) bool {
	if len(s) < len(key) {
		return false
	}
	if !fold {
		return s[:len(key)] == key
	}
	for i := 0; i < len(key); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != key[i] {
			return false
		}
	}
	return true
}

// find returns the spans to replace, sorted and without overlaps.
func (x *Redactor) find(s string) []span {
	var spans []span
	for _, sec := range x.secrets {
		for at := 0; ; {
			i := strings.Index(s[at:], sec)
			if i < 0 {
				break
			}
			spans = append(spans, span{at + i, at + i + len(sec), KindConfigSecret})
			at += i + len(sec)
		}
	}
	spans = append(spans, privateKeys(s)...)
	for ri, at := range occurrences(s) {
		ru := &rules[ri]
		for _, w := range windows(s, at, ru) {
			for _, m := range ru.re.FindAllStringSubmatchIndex(s[w[0]:w[1]], -1) {
				start, end := m[0], m[1]
				for g := 2; g+1 < len(m); g += 2 {
					if m[g] >= 0 {
						start, end = m[g], m[g+1]
						break
					}
				}
				if end > start {
					spans = append(spans, span{w[0] + start, w[0] + end, ru.kind})
				}
			}
		}
	}
	if len(spans) < 2 {
		return spans
	}
	// Earliest first; at one start, the longest. An overlapping match
	// widens the one kept, so that no part of either survives.
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start < last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// PEM private key blocks: the BEGIN line, the body, the END line. A block
// whose END is missing (a truncated key still gives the key away) goes up
// to the end of its base64 body.
var (
	pemBegin = regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = regexp.MustCompile(`-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----`)
)

// maxKeyBytes bounds how far after its BEGIN line a block's END may be:
// an RSA 16384-bit key is about 12 KiB.
const maxKeyBytes = 64 << 10

func privateKeys(s string) []span {
	if !strings.Contains(s, "PRIVATE KEY") {
		return nil
	}
	begins := pemBegin.FindAllStringIndex(s, -1)
	if len(begins) == 0 {
		return nil
	}
	// Every END once, so that many BEGINs without one cost one pass, not
	// one pass each.
	ends := pemEnd.FindAllStringIndex(s, -1)
	var out []span
	covered := 0
	for _, b := range begins {
		if b[0] < covered {
			continue
		}
		end := -1
		i := sort.Search(len(ends), func(i int) bool { return ends[i][0] >= b[1] })
		if i < len(ends) && ends[i][0]-b[1] <= maxKeyBytes {
			end = ends[i][1]
		} else {
			end = b[1]
			for end < len(s) && isBodyByte(s[end]) {
				end++
			}
		}
		out = append(out, span{b[0], end, KindPrivateKey})
		covered = end
	}
	return out
}

// isBodyByte is a byte of a PEM body: base64 and line breaks.
func isBodyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '=' || c == '\n' || c == '\r' || c == ' ' || c == '\t'
}

// maxStretch bounds how far a window goes on past fwd to the next space or
// quote: a "token" of megabytes is not one.
const maxStretch = 64 << 10

// windows returns the stretches of s the rule's expression runs on: around
// each position where one of its keys starts (at, ascending), merged where
// they touch. Each is widened once: its start back to where a word starts
// (at most 64 bytes), so that an expression's \b sees what the whole text
// has; its end on to a space or quote, up to the next window, which then
// joins it. So each byte is looked at a bounded number of times, however
// many keys the text holds.
func windows(s string, at []int, ru *rule) [][2]int {
	var merged [][2]int
	reach := ru.fwd + ru.keyLen
	for i := 0; i < len(at); {
		w := [2]int{max(at[i]-ru.back, 0), min(at[i]+reach, len(s))}
		for i++; i < len(at) && at[i]-ru.back <= w[1]; i++ {
			w[1] = min(at[i]+reach, len(s))
		}
		for lim := max(w[0]-64, 0); w[0] > lim && isWordByte(s[w[0]-1]); {
			w[0]--
		}
		if n := len(merged); n > 0 && w[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], w[1])
		} else {
			merged = append(merged, w)
		}
		last := &merged[len(merged)-1]
		next := len(s)
		if i < len(at) {
			next = max(at[i]-ru.back, 0)
		}
		for lim := min(last[1]+maxStretch, next); last[1] < lim && !isStopByte(s[last[1]]); {
			last[1]++
		}
	}
	return merged
}

func isWordByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

func isStopByte(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '"' || c == '\'' || c == '<' || c == '>'
}
