package ops

import (
	"sync"
	"unicode/utf8"
)

// Overflow is the label value that stands for every value past a label's
// bound.
const Overflow = "other"

// maxLabelBytes bounds one label value; longer values are Overflow.
const maxLabelBytes = 64

// bounded keeps one label's set of values finite: the first max distinct
// values are themselves, every later one is Overflow. Values come from
// configuration or fixed enums, so the bound is only reached by a bug or an
// attacker, and then the series count stops growing instead of the memory.
type bounded struct {
	mu   sync.Mutex
	max  int
	seen map[string]bool
}

func newBounded(max int) *bounded { return &bounded{max: max, seen: map[string]bool{}} }

func (b *bounded) value(v string) string {
	if len(v) > maxLabelBytes || !utf8.ValidString(v) {
		return Overflow
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[v] {
		return v
	}
	if len(b.seen) >= b.max {
		return Overflow
	}
	b.seen[v] = true
	return v
}
