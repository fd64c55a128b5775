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
// tokenizer blind spot cannot be used to slip past it. Where a `/` may be read
// two ways, both readings are checked.
func ModuleAccess(code string) bool {
	toks, alts, exhausted, err := tokenize(code)
	if err != nil || exhausted {
		return strings.Contains(code, "import") || strings.Contains(code, "require") ||
			strings.Contains(code, "getBuiltinModule") || strings.Contains(code, `\u`)
	}
	if loaderUse(toks) {
		return true
	}
	for _, alt := range alts {
		if loaderUse(alt) {
			return true
		}
	}
	return false
}

// loaderUse applies the rules to one reading of the code.
func loaderUse(toks []token) bool {
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

// isPropertyKey reports whether toks[i] is a key as in {import: 1}. It does
// not depend on telling an object from a block: in a block the same tokens
// are a label, which is not a use of the binding either. Methods named
// import or require ({require() {}}) are rejected on purpose: told apart from
// a call only by that guess, they would be a way around the check.
func isPropertyKey(toks []token, i int) bool {
	return (punctAt(toks, i-1, "{") || punctAt(toks, i-1, ",")) && punctAt(toks, i+1, ":")
}
