package source

// Models write cells as they would write a file: an ES module
// (`export default async function main() {…}`, `export const …`, the
// TypeScript idiom `export {};` that gives a file top-level await,
// `import type { X } from "…"`), a script with a `main` it never calls, or,
// as another host asks for, one function (`async () => { … }`). A cell is
// the body of an async function, where none of these does what was meant:
// exports are syntax errors, and the function is never called. So reshape
// rewrites them on the tokens, before the shell check (which would read
// `export` as the shell builtin):
//
//   - `export` before a declaration is dropped;
//   - `export { … }` and `import type …` statements are dropped (`export …
//     from` is module access, refused like an import);
//   - the default export is called and awaited (a value that is not a
//     function is the value), and so is a top-level `function main` the cell
//     never mentions again, when the cell has no top-level return of its own;
//   - a cell that is exactly one function expression is called and awaited.
//
// Dropped text becomes blanks (a `;` at the export when a statement comes
// before it, which that ends as the export did), so positions stay the
// user's; what is
// inserted is recorded as insertions for the cell's Map. Anything in doubt
// (a reading of `/` that disagrees, a form not listed) leaves the cell as it
// is, for the checks that follow to judge. The rewritten cell goes through
// every check again: the shell check, the module check and the engine see
// only it.

import (
	"slices"
	"strings"
)

// defaultVar holds a default export that is not a named declaration.
const defaultVar = "__cm_default"

// shaped is a rewritten cell: its code and the text inserted into it, in
// the order it was inserted.
type shaped struct {
	code string
	ins  []insertion
}

// edit replaces code[start:end] with blanks (line breaks kept), a `;` first
// when semi, and inserts text at start.
type edit struct {
	start, end int
	semi       bool
	text       string
}

// reshape returns the rewritten cell, nil when it stays as it is, or a
// module access refusal for `export … from`.
func reshape(code string, l lexing) (*shaped, error) {
	if l.err != nil || l.exhausted || len(l.toks) == 0 {
		return nil, nil
	}
	edits, bad := planShape(code, l.toks)
	if bad {
		return nil, reject(ReasonModuleAccessDenied, MsgModuleAccess)
	}
	for _, alt := range l.alts { // another reading of a `/` must agree
		if e, b := planShape(code, alt); b || !slices.Equal(e, edits) {
			return nil, nil
		}
	}
	if len(edits) == 0 {
		return nil, nil
	}
	return applyEdits(code, edits), nil
}

// planShape finds the edits on one reading of the cell. bad is true for
// `export … from`.
func planShape(code string, toks []token) (edits []edit, bad bool) {
	defaultName, declared := "", false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.depth != 0 || t.kind != tokIdent || afterDot(toks, i) {
			continue
		}
		switch t.text {
		case "import":
			if end, ok := typeImport(toks, i); ok {
				edits = append(edits, edit{start: int(t.start), end: int(toks[end].end), semi: i > 0})
				i = end
			}
			continue
		case "export":
		default:
			continue
		}
		if i+1 >= len(toks) {
			return nil, false
		}
		n := toks[i+1]
		switch {
		case n.kind == tokIdent && n.text == "default":
			if defaultName != "" || i+2 >= len(toks) {
				return nil, false
			}
			e := edit{start: int(t.start), end: int(n.end), semi: i > 0}
			if name, ok := namedDeclaration(toks, i+2); ok {
				defaultName, declared = name, true
			} else {
				defaultName, e.semi, e.text = defaultVar, false, "var "+defaultVar+" = "
				if i > 0 {
					e.text = ";" + e.text
				}
			}
			edits = append(edits, e)
			i++
		case n.kind == tokIdent && exportable[n.text] && !punctAt(toks, i+2, "="):
			edits = append(edits, edit{start: int(t.start), end: int(t.end), semi: i > 0})
		case isPunct(n, "*"):
			return nil, true // export * from "m"
		case isPunct(n, "{"):
			end := closer(toks, i+1)
			if end < 0 {
				return nil, false
			}
			if end+1 < len(toks) && toks[end+1].kind == tokIdent && toks[end+1].text == "from" {
				return nil, true
			}
			if name := defaultAlias(toks, i+2, end); name != "" {
				if defaultName != "" {
					return nil, false
				}
				defaultName = name
			}
			if punctAt(toks, end+1, ";") {
				end++
			}
			edits = append(edits, edit{start: int(t.start), end: int(toks[end].end), semi: i > 0})
			i = end
		default:
			return nil, false // export FOO=1 is the shell's; export = x is not ours
		}
	}
	if defaultName == "" && len(edits) == 0 {
		if e, ok := functionCell(toks); ok {
			return e, false
		}
	}
	call := defaultName
	if declared && mentioned(toks, defaultName) {
		call = "" // the cell calls it itself
	}
	if defaultName == "" {
		call = uncalledMain(toks)
	}
	if call != "" && !scanTop(toks, true).ret {
		at := int(toks[len(toks)-1].end)
		edits = append(edits, edit{start: at, end: at,
			text: ";return await (typeof " + call + ` === "function" ? ` + call + "() : " + call + ");"})
	}
	return edits, false
}

// exportable are the words that may follow export in a declaration.
var exportable = wordSet(`const let var function async class enum interface type declare abstract namespace module`)

// typeImport reports whether the import at toks[i] is type-only (`import
// type … from "m"`, or `import { type A, type B } from "m"`) and where its
// statement ends.
func typeImport(toks []token, i int) (int, bool) {
	j := i + 1
	switch {
	case j < len(toks) && toks[j].kind == tokIdent && toks[j].text == "type" &&
		j+1 < len(toks) && (toks[j+1].kind == tokIdent && toks[j+1].text != "from" || isPunct(toks[j+1], "{") || isPunct(toks[j+1], "*")):
	case punctAt(toks, j, "{"):
		end := closer(toks, j)
		if end < 0 || !allTypes(toks, j+1, end) {
			return 0, false
		}
	default:
		return 0, false
	}
	for ; j < len(toks); j++ {
		if toks[j].depth == 0 && toks[j].kind == tokIdent && toks[j].text == "from" {
			if j+1 >= len(toks) || toks[j+1].kind != tokString {
				return 0, false
			}
			if punctAt(toks, j+2, ";") {
				return j + 2, true
			}
			return j + 1, true
		}
		if toks[j].depth == 0 && (isPunct(toks[j], ";") || isPunct(toks[j], "=")) {
			return 0, false
		}
	}
	return 0, false
}

// allTypes reports whether every specifier in toks[from:end] starts with type.
func allTypes(toks []token, from, end int) bool {
	want := true
	n := 0
	for k := from; k < end; k++ {
		t := toks[k]
		if want {
			if t.kind != tokIdent || t.text != "type" || k+1 >= end || toks[k+1].kind != tokIdent {
				return false
			}
			want = false
			n++
			continue
		}
		if isPunct(t, ",") {
			want = true
		}
	}
	return n > 0
}

// namedDeclaration reports whether toks[i] starts a function or class
// declaration with a name, which export default leaves bound.
func namedDeclaration(toks []token, i int) (string, bool) {
	if toks[i].kind == tokIdent && toks[i].text == "async" {
		i++
	}
	if i >= len(toks) || toks[i].kind != tokIdent || toks[i].text != "function" && toks[i].text != "class" {
		return "", false
	}
	i++
	if punctAt(toks, i, "*") {
		i++
	}
	if i < len(toks) && toks[i].kind == tokIdent && toks[i].text != "extends" && !reservedWords[toks[i].text] {
		return toks[i].text, true
	}
	return "", false
}

// defaultAlias finds `name as default` in an export list.
func defaultAlias(toks []token, from, end int) string {
	for k := from; k+2 < end; k++ {
		if toks[k].kind == tokIdent && toks[k+1].kind == tokIdent && toks[k+1].text == "as" &&
			toks[k+2].kind == tokIdent && toks[k+2].text == "default" {
			return toks[k].text
		}
	}
	return ""
}

// closer returns the index of the } that closes the { at toks[k], or -1.
func closer(toks []token, k int) int {
	for j := k + 1; j < len(toks); j++ {
		if toks[j].depth == toks[k].depth {
			if isPunct(toks[j], "}") {
				return j
			}
			return -1
		}
	}
	return -1
}

// mentioned reports whether name appears as a binding, other than as the
// name of the one declaration that introduces it.
func mentioned(toks []token, name string) bool {
	n := 0
	for i, t := range toks {
		if t.kind == tokIdent && t.text == name && !afterDot(toks, i) && !isPropertyKey(toks, i) {
			n++
		}
	}
	return n > 1
}

// uncalledMain returns "main" when the cell declares a top-level function
// main, at the start of a statement, and never mentions it again.
func uncalledMain(toks []token) string {
	for i, t := range toks {
		if t.depth != 0 || t.kind != tokIdent || t.text != "function" || !punctAt(toks, i+2, "(") ||
			toks[i+1].kind != tokIdent || toks[i+1].text != "main" {
			continue
		}
		s := i
		if s > 0 && toks[s-1].kind == tokIdent && toks[s-1].text == "async" {
			s--
		}
		if s > 0 && toks[s-1].kind == tokIdent && toks[s-1].text == "export" {
			s-- // export function main, exported but never called
		}
		if s == 0 || isPunct(toks[s-1], ";") || isPunct(toks[s-1], "}") {
			if !mentioned(toks, "main") {
				return "main"
			}
		}
		return ""
	}
	return ""
}

// functionCell recognizes a cell that is exactly one function: an arrow
// (`async () => { … }`, `x => …`), a function (`async function () { … }`),
// or either in parentheses, with an optional final `;`. The edits call it:
// `return await (` before and `)()` after.
func functionCell(toks []token) ([]edit, bool) {
	last := len(toks) - 1
	if last > 0 && isPunct(toks[last], ";") {
		last--
	}
	first := 0
	for first < last && isPunct(toks[first], "(") && skipGroup(toks, first) == last {
		first, last = first+1, last-1 // parentheses around it
	}
	if first > last || !oneFunction(toks, first, last) || !scanTop(toks, false).balanced {
		return nil, false
	}
	start, end := int(toks[0].start), int(toks[len(toks)-1].end)
	if isPunct(toks[len(toks)-1], ";") {
		end = int(toks[len(toks)-2].end)
	}
	return []edit{{start: start, end: start, text: "return await ("}, {start: end, end: end, text: ")()"}}, true
}

// oneFunction reports whether toks[first..last] are one function expression.
func oneFunction(toks []token, first, last int) bool {
	toks = toks[:last+1] // nothing past last counts
	k := first
	if toks[k].kind == tokIdent && toks[k].text == "async" && k < last && !toks[k+1].nl {
		k++
	}
	if toks[k].kind == tokIdent && toks[k].text == "function" {
		k++
		if punctAt(toks, k, "*") {
			k++
		}
		if k <= last && toks[k].kind == tokIdent {
			if first == 0 {
				return false // a declaration, not an expression (main: uncalledMain)
			}
			k++
		}
		if !punctAt(toks, k, "(") {
			return false
		}
		if k = skipGroup(toks, k); k < 0 {
			return false
		}
		k = skipReturnType(toks, k+1, last, "{")
		return punctAt(toks, k, "{") && closer(toks, k) == last
	}
	switch {
	case isPunct(toks[k], "("):
		if k = skipGroup(toks, k); k < 0 {
			return false
		}
	case toks[k].kind == tokIdent && !reservedWords[toks[k].text]:
	default:
		return false
	}
	k = skipReturnType(toks, k+1, last, "=>")
	if !punctAt(toks, k, "=>") || k == last || toks[k].nl {
		return false
	}
	if isPunct(toks[k+1], "{") {
		return closer(toks, k+1) == last
	}
	// An expression body runs to the end unless a comma or a statement
	// boundary at the top ends it first.
	for j := k + 1; j <= last; j++ {
		if toks[j].depth == toks[k].depth && (isPunct(toks[j], ",") || isPunct(toks[j], ";")) {
			return false
		}
	}
	// Inside parentheses no line break ends it; at the top one may.
	return first > 0 || scanTop(toks, false).last == 0
}

// skipReturnType skips a TypeScript return type (`: Promise<void>`) from
// toks[k] to the token want at the same depth; it returns k when there is
// no type, and -1 when want does not follow.
func skipReturnType(toks []token, k, last int, want string) int {
	if !punctAt(toks, k, ":") {
		return k
	}
	for j := k + 1; j <= last; j++ {
		if toks[j].depth == toks[k].depth && isPunct(toks[j], want) {
			return j
		}
	}
	return -1
}

// applyEdits makes the edits, which are in order and do not overlap.
func applyEdits(code string, edits []edit) *shaped {
	var b strings.Builder
	var ins []insertion
	at, line, lineStart := 0, 1, 0 // in code; lineStart is where line starts in b
	for _, e := range edits {
		b.WriteString(code[at:e.start])
		for _, c := range code[at:e.start] {
			if c == '\n' {
				line++
			}
		}
		if i := strings.LastIndexByte(code[at:e.start], '\n'); i >= 0 {
			lineStart = b.Len() - (e.start - at - i - 1)
		}
		if e.text != "" {
			ins = append(ins, insertion{line: line, col: b.Len() - lineStart, n: len(e.text)})
			b.WriteString(e.text)
		}
		for k := e.start; k < e.end; k++ {
			switch c := code[k]; {
			case strings.HasPrefix(code[k:], "\u2028") || strings.HasPrefix(code[k:], "\u2029"):
				b.WriteString(code[k : k+3]) // a line break to the engine: kept
				k += 2
			case c == '\n':
				b.WriteByte(c)
				line++
				lineStart = b.Len()
			case c == '\r' || c == '\t':
				b.WriteByte(c)
			case k == e.start && e.semi:
				b.WriteByte(';')
			default:
				b.WriteByte(' ')
			}
		}
		at = e.end
	}
	b.WriteString(code[at:])
	return &shaped{code: b.String(), ins: ins}
}
