package source

import "strings"

// moduleHolders are objects whose `require` property is a module loader.
var moduleHolders = map[string]bool{
	"module": true, "mainModule": true, "globalThis": true, "global": true, "self": true, "window": true,
}

// ModuleAccess reports whether code reaches for a module loader: an import
// declaration, import(...), import.meta, require as a value (also spelled
// with escapes or through `(0, require)`), module.require and the like, or
// process.getBuiltinModule. It works on tokens, so strings, comments,
// template text, regular expressions, property names such as api.import()
// and identifiers such as important pass.
//
// The engine has no module loader at all; this check exists to give the
// model a clear message instead of a confusing runtime failure. When the
// code cannot be tokenized (it is not valid JavaScript anyway), it falls back
// to rejecting any occurrence of the loader words or of a \u escape, so a
// tokenizer blind spot cannot be used to slip past it.
func ModuleAccess(code string) bool {
	toks, err := tokenize(code)
	if err != nil {
		return strings.Contains(code, "import") || strings.Contains(code, "require") ||
			strings.Contains(code, "getBuiltinModule") || strings.Contains(code, `\u`)
	}
	for i, t := range toks {
		if t.kind == tokString && i >= 2 && punctAt(toks, i-1, "[") && toks[i-2].kind == tokIdent {
			// module["require"], process["getBuiltinModule"]
			if t.text == "getBuiltinModule" || t.text == "require" && moduleHolders[toks[i-2].text] {
				return true
			}
		}
		if t.kind != tokIdent {
			continue
		}
		member := punctAt(toks, i-1, ".") || punctAt(toks, i-1, "?.")
		switch t.text {
		case "import":
			if !member && !isPropertyKey(toks, i) {
				return true
			}
		case "require":
			if member && i >= 2 && toks[i-2].kind == tokIdent && moduleHolders[toks[i-2].text] {
				return true
			}
			if !member && !isPropertyKey(toks, i) {
				return true
			}
		case "getBuiltinModule":
			if !member && !isPropertyKey(toks, i) ||
				member && i >= 2 && toks[i-2].kind == tokIdent && toks[i-2].text == "process" {
				return true
			}
		}
	}
	return false
}

func punctAt(toks []token, i int, p string) bool {
	return i >= 0 && i < len(toks) && toks[i].kind == tokPunct && toks[i].text == p
}

// isPropertyKey reports whether toks[i] names a key of an object literal,
// as in {import: 1} or {require() {}}. Shorthand {require} is a reference
// and does not count.
func isPropertyKey(toks []token, i int) bool {
	return toks[i].inObject && (punctAt(toks, i-1, "{") || punctAt(toks, i-1, ",")) &&
		(punctAt(toks, i+1, ":") || punctAt(toks, i+1, "("))
}
