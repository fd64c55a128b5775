package catalog

import (
	"slices"
	"strconv"
	"strings"
)

// QuickIndexBudget is the most UTF-16 units the quick index block may use.
const QuickIndexBudget = 8000

const (
	quickIndexHeader = "OpenClaw/plugin tool quick index (exact ids plus compact input and declared output hints; descriptions are intentionally deferred):\n" +
		"Each line is `id input -> output`; `-> ?` means the output shape is unknown.\n" +
		"OUTPUT DECLARED RULE: a declared `-> Type` is the value tools.callValue(id, input) returns; use its fields directly.\n" +
		"OUTPUT UNKNOWN RULE: for `-> ?`, the first exec should return await tools.callValue(id, input) unchanged; a later exec may transform the observed value instead of guessing field names."
	quickIndexFooterAll = "Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous."
)

func quickIndexFooter(omitted int) string {
	if omitted == 0 {
		return quickIndexFooterAll
	}
	return strconv.Itoa(omitted) + " additional OpenClaw/plugin tools omitted from this prompt index. Use ALL_TOOLS or tools.search inside exec to find them."
}

// QuickIndex returns the quick index block of the exec description: a
// header, one line per core or plugin entry of the form
//
//   - "<id>" <input hint> -> <output hint or ?>
//
// with entries that declare an output first, then by id, a blank line and a
// footer. The block is at most [QuickIndexBudget] UTF-16 units: when the
// whole list does not fit, lines are packed greedily in order, skipping any
// line that would not fit, and the footer counts the omitted entries.
// Descriptions never appear. With no core or plugin entries it returns "".
// The result is computed once per catalog.
func (c *Catalog) QuickIndex() string {
	c.quickOnce.Do(func() {
		if c.shared != nil {
			c.quickIndex = c.shared.QuickIndex()
			return
		}
		c.quickIndex = c.buildQuickIndex()
	})
	return c.quickIndex
}

func (c *Catalog) buildQuickIndex() string {
	var idx []*Entry
	for i := range c.entries {
		if c.entries[i].Source == SourceOpenClaw {
			idx = append(idx, &c.entries[i])
		}
	}
	if len(idx) == 0 {
		return ""
	}
	slices.SortFunc(idx, func(a, b *Entry) int {
		if (a.Output != "") != (b.Output != "") {
			if a.Output != "" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	lines := make([]string, len(idx))
	widths := make([]int, len(idx))
	total := u16len(quickIndexHeader) + 2 + u16len(quickIndexFooterAll) // "\n\n" before the footer
	for k, e := range idx {
		lines[k] = quickIndexLine(e)
		widths[k] = u16len(lines[k]) + 1 // its "\n"
		total += widths[k]
	}
	keep := make([]bool, len(lines))
	if total <= QuickIndexBudget {
		for k := range keep {
			keep[k] = true
		}
	} else {
		used := u16len(quickIndexHeader) + 2
		included := 0
		for k := range lines {
			footer := u16len(quickIndexFooter(len(lines) - included - 1))
			if used+widths[k]+footer <= QuickIndexBudget {
				keep[k] = true
				used += widths[k]
				included++
			}
		}
	}
	var b strings.Builder
	b.WriteString(quickIndexHeader)
	omitted := 0
	for k, line := range lines {
		if !keep[k] {
			omitted++
			continue
		}
		b.WriteByte('\n')
		b.WriteString(line)
	}
	b.WriteString("\n\n")
	b.WriteString(quickIndexFooter(omitted))
	return b.String()
}

func quickIndexLine(e *Entry) string {
	out := e.Output
	if out == "" {
		out = "?"
	}
	in := e.Input
	if in == "" {
		in = unknownType
	}
	return "- " + jsonQuote(e.ID) + " " + in + " -> " + out
}

// SearchExample returns a tools.search query for the exec description's
// example: the words of a core or plugin tool's name, so the example finds
// a tool in this catalog rather than none. It prefers a tool whose input
// hint is {} (then empty is true: the example may call it with {}), and
// returns ok false when no core or plugin name has words.
func (c *Catalog) SearchExample() (query string, empty, ok bool) {
	c.exampleOnce.Do(func() {
		if c.shared != nil {
			c.example.query, c.example.empty, c.example.ok = c.shared.SearchExample()
			return
		}
		c.example.query, c.example.empty, c.example.ok = c.searchExample()
	})
	return c.example.query, c.example.empty, c.example.ok
}

func (c *Catalog) searchExample() (query string, empty, ok bool) {
	for _, wantEmpty := range []bool{true, false} {
		for i := range c.entries {
			e := &c.entries[i]
			if e.Source != SourceOpenClaw || (wantEmpty && e.Input != "{}") {
				continue
			}
			// Each word is a lower-cased piece of the name, so the name
			// contains it and Search scores the tool: the example finds it.
			words := alnumTokens(e.Name)
			if len(words) == 0 {
				continue
			}
			words = words[:min(len(words), 3)]
			for k, w := range words {
				words[k] = w[:min(len(w), 24)]
			}
			return strings.Join(words, " "), e.Input == "{}", true
		}
	}
	return "", false, false
}
