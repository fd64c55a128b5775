package catalog

import (
	"container/heap"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Search scores, per query term.
const (
	scoreExact       = 20 // the name or id equals the term
	scoreName        = 8  // the name contains the term
	scoreID          = 6  // the id contains the term
	scoreLabel       = 4  // the label contains the term
	scoreDescription = 2  // the description contains the term
)

// tokenize lower-cases s and splits it on runs of characters outside
// [a-z0-9_./:-], dropping empty tokens.
func tokenize(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '/' || r == ':' || r == '-')
	})
}

// blob is one lower-cased text field of every guest entry, concatenated with
// NUL separators, so that one substring scan serves all entries. A term never
// contains NUL, so a match never spans two entries.
type blob struct {
	text   string
	starts []int32     // starts[k] is where guest entry k begins; one extra final offset
	freq   [256]uint32 // byte histogram of text, to scan for a term's rarest byte
}

func newBlob(n int, field func(k int) string) blob {
	size := n
	for k := range n {
		size += len(field(k))
	}
	buf := make([]byte, 0, size)
	starts := make([]int32, 0, n+1)
	for k := range n {
		starts = append(starts, int32(len(buf)))
		buf = appendLower(buf, field(k))
		buf = append(buf, 0)
	}
	starts = append(starts, int32(len(buf)))
	b := blob{text: string(buf), starts: starts}
	for _, c := range buf {
		b.freq[c]++
	}
	return b
}

// appendLower appends strings.ToLower(s) to buf, without allocating for
// ASCII text.
func appendLower(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(buf, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

// each calls fn once, in order, for every entry whose field contains term.
// It scans for the term's rarest byte and verifies candidates around it.
func (b *blob) each(term string, fn func(k int)) {
	p := 0
	for i := 1; i < len(term); i++ {
		if b.freq[term[i]] < b.freq[term[p]] {
			p = i
		}
	}
	c, text, k := term[p], b.text, 0
	for i := p; i < len(text); {
		j := strings.IndexByte(text[i:], c)
		if j < 0 {
			return
		}
		at := i + j - p
		if at+len(term) > len(text) || text[at:at+len(term)] != term {
			i += j + 1
			continue
		}
		for int(b.starts[k+1]) <= at {
			k++
		}
		fn(k)
		i = int(b.starts[k+1]) + p
	}
}

// bloomWords is the size of an entry's pair filter, in 64-bit words.
const bloomWords = 8

// pairBit hashes a byte pair to a bit of an entry's pair filter.
func pairBit(a, b byte) uint32 {
	return (uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> (32 - 9)
}

// field returns entry k's lower-cased text.
func (b *blob) field(k int) string { return b.text[b.starts[k] : b.starts[k+1]-1] }

// scoredField pairs a blob with the score a match in it adds.
type scoredField struct {
	*blob
	score int32
}

func (ix *searchIndex) fields() [4]scoredField {
	return [4]scoredField{{&ix.name, scoreName}, {&ix.id, scoreID}, {&ix.label, scoreLabel}, {&ix.desc, scoreDescription}}
}

// score adds the score of one term to every entry that matches it.
func (ix *searchIndex) score(term string, scores []int32) {
	for _, k := range ix.exact[term] {
		scores[k] += scoreExact
	}
	fields := ix.fields()
	scan := func() {
		for _, f := range fields {
			f.each(term, func(k int) { scores[k] += f.score })
		}
	}
	if len(term) < 2 {
		scan()
		return
	}
	var bits []uint32
	for i := 0; i+1 < len(term); i++ {
		bits = append(bits, pairBit(term[i], term[i+1]))
	}
	var candidates []int32
	for k := range scores {
		w := ix.bloom[k*bloomWords : (k+1)*bloomWords]
		candidate := true
		for _, bit := range bits {
			if w[bit>>6]&(1<<(bit&63)) == 0 {
				candidate = false
				break
			}
		}
		if candidate {
			candidates = append(candidates, int32(k))
		}
	}
	// Checking candidates one by one pays off while they are few; a term
	// that occurs almost everywhere is cheaper to find with one scan.
	if len(candidates)*denseTerm > len(scores) {
		scan()
		return
	}
	for _, k := range candidates {
		for _, f := range fields {
			if strings.Contains(f.field(int(k)), term) {
				scores[k] += f.score
			}
		}
	}
}

// denseTerm: a term whose filter candidates exceed 1/denseTerm of the
// entries is scanned for instead of checked per candidate.
const denseTerm = 8

// searchIndex ranks guest entries. Positions k index Catalog.guest.
type searchIndex struct {
	name, id, label, desc blob
	// bloom holds, per entry, bloomWords words of a Bloom filter of the byte
	// pairs in its lower-cased fields. A term longer than one byte can only
	// occur in an entry whose filter has all of the term's pairs, so most
	// entries are rejected with a bit test or two.
	bloom  []uint64
	exact  map[string][]int32 // lower-cased name and id -> positions
	rank   []int32            // position -> rank in id order
	byRank []int32            // rank -> position
}

// newSearchIndex indexes entries[pos[...]]. alias, when not nil, gives a
// second name of position k: the name field holds both (so a term found in
// either scores once, as for a name) and either equals a term exactly.
func newSearchIndex(entries []Entry, pos []int, alias func(k int) string) searchIndex {
	n := len(pos)
	at := func(k int) *Entry { return &entries[pos[k]] }
	nameOf := func(k int) string { return at(k).Name }
	if alias != nil {
		nameOf = func(k int) string {
			if a := alias(k); a != "" && !strings.EqualFold(a, at(k).Name) {
				return at(k).Name + " " + a // a space is in no term
			}
			return at(k).Name
		}
	}
	// The index is most of Build's serial time, so its independent parts
	// are built on two goroutines: the description blob and the id order on
	// one, the other blobs and the exact-match map on the other.
	var ix searchIndex
	var wg sync.WaitGroup
	wg.Go(func() {
		ix.desc = newBlob(n, func(k int) string { return at(k).Description })
		ix.byRank = make([]int32, n)
		for k := range ix.byRank {
			ix.byRank[k] = int32(k)
		}
		slices.SortFunc(ix.byRank, func(a, b int32) int { return strings.Compare(at(int(a)).ID, at(int(b)).ID) })
		ix.rank = make([]int32, n)
		for r, k := range ix.byRank {
			ix.rank[k] = int32(r)
		}
	})
	ix.name = newBlob(n, nameOf)
	ix.id = newBlob(n, func(k int) string { return at(k).ID })
	ix.label = newBlob(n, func(k int) string { return at(k).Label })
	ix.exact = make(map[string][]int32, 2*n)
	for k := range n {
		name := ix.name.field(k)
		id := ix.id.field(k)
		if alias != nil {
			// The field is "name alias"; a name may hold spaces itself.
			name = strings.ToLower(at(k).Name)
			if a := strings.ToLower(alias(k)); a != "" && a != name && a != id {
				ix.exact[a] = append(ix.exact[a], int32(k))
			}
		}
		ix.exact[name] = append(ix.exact[name], int32(k))
		if id != name {
			ix.exact[id] = append(ix.exact[id], int32(k))
		}
	}
	wg.Wait()

	// Each entry's filter is its own, so the two halves fill in parallel.
	ix.bloom = make([]uint64, n*bloomWords)
	fill := func(from, to int) {
		for k := from; k < to; k++ {
			w := ix.bloom[k*bloomWords : (k+1)*bloomWords]
			for _, f := range ix.fields() {
				text := f.field(k)
				for i := 0; i+1 < len(text); i++ {
					bit := pairBit(text[i], text[i+1])
					w[bit>>6] |= 1 << (bit & 63)
				}
			}
		}
	}
	wg.Go(func() { fill(0, n/2) })
	fill(n/2, n)
	wg.Wait()
	return ix
}

// ParseLimit reads the guest's search limit option, as raw JSON. Absent or
// null means the default (0 is returned). Anything but a JSON number holding
// a positive integer is an error matching [ErrInvalidLimit] with the message
// "limit must be a positive integer.". Large limits are returned as is;
// [Catalog.Search] caps them.
func ParseLimit(raw json.RawMessage) (int, error) {
	v, ok := decodeJSON(raw)
	if !ok {
		if len(raw) == 0 {
			return 0, nil
		}
		return 0, ErrInvalidLimit
	}
	if v == nil {
		return 0, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, ErrInvalidLimit
	}
	f, ok := parseNumber(n)
	if !ok || f < 1 || f != math.Trunc(f) {
		return 0, ErrInvalidLimit
	}
	if f > math.MaxInt32 {
		return math.MaxInt32, nil
	}
	return int(f), nil
}

// Search ranks the guest-visible (non-MCP) entries against query and returns
// at most limit of them, best first. limit 0 means the default limit; a
// negative limit is an error matching [ErrInvalidLimit]; limits above the
// maximum are capped.
//
// Scoring: the query is lower-cased and split on runs of characters outside
// [a-z0-9_./:-]. Each term adds 20 when the name or id equals it, 8 when the
// name contains it, 6 for the id, 4 for the label, 2 for the description
// (all compared lower-cased). With no terms every entry scores 1. Entries
// scoring 0 are dropped; ties are broken by id in code-unit order.
func (c *Catalog) Search(query string, limit int) ([]Compact, error) {
	c.indexOnce.Do(func() { c.index = newSearchIndex(c.entries, c.guest, nil) })
	top, err := c.rank(&c.index, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Compact, len(top))
	for r, k := range top {
		out[r] = c.entries[c.guest[k]].Compact()
	}
	return out, nil
}

// rank returns the positions in ix of the best entries for query, best
// first: the ranking of [Catalog.Search], for any index.
func (c *Catalog) rank(ix *searchIndex, query string, limit int) ([]int32, error) {
	if limit < 0 {
		return nil, ErrInvalidLimit
	}
	if limit == 0 {
		limit = c.defaultLimit
	}
	limit = min(limit, c.maxLimit)
	n := len(ix.rank)
	terms := tokenize(query)
	if len(terms) == 0 {
		return ix.byRank[:min(limit, n)], nil
	}
	scores := make([]int32, n)
	for _, t := range terms {
		ix.score(t, scores)
	}
	return ix.best(scores, limit), nil
}

// best returns the positions of the limit highest scores (score descending,
// then id rank ascending), skipping zero scores.
func (ix *searchIndex) best(scores []int32, limit int) []int32 {
	h := &scoreHeap{rank: ix.rank, scores: scores}
	for k, s := range scores {
		if s <= 0 {
			continue
		}
		if len(h.items) < limit {
			heap.Push(h, int32(k))
			continue
		}
		if h.better(int32(k), h.items[0]) {
			h.items[0] = int32(k)
			heap.Fix(h, 0)
		}
	}
	out := h.items
	slices.SortFunc(out, func(a, b int32) int {
		if h.better(a, b) {
			return -1
		}
		return 1
	})
	return out
}

// scoreHeap is a min-heap of positions: its root is the worst kept result.
type scoreHeap struct {
	items  []int32
	rank   []int32
	scores []int32
}

func (h *scoreHeap) better(a, b int32) bool {
	if h.scores[a] != h.scores[b] {
		return h.scores[a] > h.scores[b]
	}
	return h.rank[a] < h.rank[b]
}

func (h *scoreHeap) Len() int           { return len(h.items) }
func (h *scoreHeap) Less(i, j int) bool { return h.better(h.items[j], h.items[i]) }
func (h *scoreHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *scoreHeap) Push(x any)         { h.items = append(h.items, x.(int32)) }
func (h *scoreHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// Resolve finds the guest-visible entry that tools.describe and tools.call
// mean by idOrName: an exact id first, then a unique exact name. MCP entries
// are never found this way (use [Catalog.Lookup] for dispatch). A name
// shared by several entries is an error matching [ErrAmbiguousTool]
// ("Ambiguous tool name: X; use an exact tool id."); no match is an error
// matching [ErrUnknownTool] ("Unknown tool id: X. Did you mean: a, b? Use
// tools.search ..."), with up to three suggestions.
func (c *Catalog) Resolve(idOrName string) (Entry, error) {
	if i, ok := c.byID[idOrName]; ok && c.entries[i].Source != SourceMCP {
		return c.entries[i], nil
	}
	return c.resolveName(idOrName, c.guest, c.guestByName, " "+ToolsHelp)
}

// ToolsHelp ends an unknown-tool message of the guest's tools object.
const ToolsHelp = "Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."

// resolveName finds an exact name among the entries at pos, or words the
// ambiguous or unknown name's error, ending with help.
func (c *Catalog) resolveName(idOrName string, pos []int, byName map[string][]int, help string) (Entry, error) {
	switch matches := byName[idOrName]; len(matches) {
	case 1:
		return c.entries[matches[0]], nil
	case 0:
	default:
		return Entry{}, &guestError{ErrAmbiguousTool, fmt.Sprintf("Ambiguous tool name: %s; use an exact tool id.", echo(idOrName))}
	}
	msg := "Unknown tool id: " + echo(idOrName) + "."
	if s := c.suggest(idOrName, pos, byName); len(s) > 0 {
		msg += " Did you mean: " + strings.Join(s, ", ") + "?"
	}
	return Entry{}, &guestError{ErrUnknownTool, msg + help}
}

// Suggestion scores.
const (
	suggestSquashed    = 60 // the same name but for case and separators (readGraph, read_graph)
	suggestContains    = 40 // the needle contains the name, or the id contains the needle
	suggestNameToken   = 40 // the needle's search tokens include the name
	suggestSharedToken = 12 // per alphanumeric token shared with the name or id
	suggestProse       = 8  // the label or description contains the needle
	maxSuggestions     = 3
)

func alnumTokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// suggest returns up to three names (or ids, for ambiguous names) of the
// entries at pos that look like needle.
func (c *Catalog) suggest(needle string, pos []int, byName map[string][]int) []string {
	n := strings.ToLower(needle)
	if strings.TrimSpace(n) == "" {
		return nil
	}
	searchTokens := tokenize(n)
	needleTokens := alnumTokens(n)
	squashed := strings.Join(needleTokens, "")
	type cand struct {
		score int
		e     *Entry
	}
	var cands []cand
	for _, i := range pos {
		e := &c.entries[i]
		name, id := strings.ToLower(e.Name), strings.ToLower(e.ID)
		score := 0
		if strings.Join(alnumTokens(name), "") == squashed {
			score += suggestSquashed
		}
		if strings.Contains(n, name) || strings.Contains(id, n) {
			score += suggestContains
		}
		if slices.Contains(searchTokens, name) {
			score += suggestNameToken
		}
		own := alnumTokens(e.Name + " " + e.ID)
		seen := map[string]bool{}
		for _, t := range needleTokens {
			if !seen[t] && slices.Contains(own, t) {
				score += suggestSharedToken
			}
			seen[t] = true
		}
		if strings.Contains(strings.ToLower(e.Label), n) || strings.Contains(strings.ToLower(e.Description), n) {
			score += suggestProse
		}
		if score > 0 {
			cands = append(cands, cand{score, e})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(a.e.ID, b.e.ID)
	})
	var out []string
	for _, cd := range cands[:min(len(cands), maxSuggestions)] {
		label := cd.e.Name
		if len(byName[cd.e.Name]) > 1 {
			label = cd.e.ID
		}
		out = append(out, echo(label))
	}
	return out
}
