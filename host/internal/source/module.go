package source

import "strings"

// moduleHolders are objects whose `require` property is a module loader.
var moduleHolders = map[string]bool{
	"module": true, "mainModule": true, "globalThis": true, "global": true, "self": true, "window": true,
}

// ModuleAccess reports whether code reaches for a module loader: an import
// declaration, import(...), import.meta, require or createRequire as a value
// (also spelled with escapes or through `(0, require)`), module.require and
// the like, process.getBuiltinModule, process.binding and process.dlopen. It
// works on tokens, so strings, comments, template text, regular
// expressions, property names such as api.import() and identifiers such as
// important pass.
//
// Naming a loader under typeof (`typeof require`, `typeof
// process.getBuiltinModule === "function"`) is not a use: typeof of a name
// or a dotted path only reads a type, it cannot call or pass the loader. The
// operand must end there: `typeof require("fs")`, `typeof require.resolve(x)`
// or `typeof module["require"]` still count. Mentioning process, module or
// globalThis is not a use either; only reaching a loader through them is.
//
// The engine has no module loader at all; this check exists to give the
// model a clear message instead of a confusing runtime failure. When the
// code cannot be tokenized (it is not valid JavaScript anyway), it falls back
// to rejecting any occurrence of the loader words or of a \u escape, so a
// tokenizer blind spot cannot be used to slip past it. Where a `/` may be read
// two ways, both readings are checked.
func ModuleAccess(code string) bool {
	denied, _ := moduleAccess(code)
	return denied
}

// lexed is a cell's token stream as the module check read it, kept for the
// trailing-expression rewrite so the cell is tokenized once. ok is false
// when it did not tokenize; sure is false when a `/` could be read another
// way (the other readings are not kept).
type lexed struct {
	toks     []token
	ok, sure bool
}

func moduleAccess(code string) (bool, lexed) { return moduleAccessOf(code, lex(code)) }

// moduleAccessOf is moduleAccess over code's tokens, lexed already.
func moduleAccessOf(code string, l lexing) (bool, lexed) {
	toks, alts, exhausted, err := l.toks, l.alts, l.exhausted, l.err
	if err != nil || exhausted {
		for _, w := range fallbackWords {
			if strings.Contains(code, w) {
				return true, lexed{}
			}
		}
		return false, lexed{toks: toks, ok: err == nil}
	}
	lx := lexed{toks: toks, ok: true, sure: len(alts) == 0}
	if loaderUse(toks) {
		return true, lx
	}
	for _, alt := range alts {
		if loaderUse(alt) {
			return true, lx
		}
	}
	return false, lx
}

// fallbackWords refuse code the lexer cannot read.
var fallbackWords = []string{"import", "require", "createRequire", "getBuiltinModule", "binding", "Binding", "dlopen", `\u`}

// processLoaders are the methods of process that load modules or native code.
var processLoaders = map[string]bool{"getBuiltinModule": true, "binding": true, "_linkedBinding": true, "dlopen": true}

// loaderUse applies the rules to one reading of the code.
func loaderUse(toks []token) bool {
	named := -1 // toks up to here are a typeof's operand: named, not used
	for i, t := range toks {
		if i <= named {
			continue
		}
		member := punctAt(toks, i-1, ".") || punctAt(toks, i-1, "?.")
		holder := ""
		if member && i >= 2 && toks[i-2].kind == tokIdent {
			holder = toks[i-2].text
		}
		if t.kind == tokString && i >= 2 && punctAt(toks, i-1, "[") && toks[i-2].kind == tokIdent {
			// module["require"], process["getBuiltinModule"]
			h := toks[i-2].text
			if t.text == "getBuiltinModule" || t.text == "createRequire" || t.text == "require" && moduleHolders[h] ||
				processLoaders[t.text] && h == "process" {
				return true
			}
		}
		if t.kind != tokIdent {
			continue
		}
		key := isPropertyKey(toks, i)
		switch t.text {
		case "typeof":
			if !member {
				if end, ok := typeofOperand(toks, i+1); ok {
					named = end
				}
			}
		case "import":
			if !member && !key {
				return true
			}
		case "require":
			if moduleHolders[holder] || !member && !key {
				return true
			}
		case "createRequire":
			if !key {
				return true
			}
		case "_load":
			if holder == "constructor" || holder == "Module" { // module.constructor._load("fs")
				return true
			}
		default:
			if processLoaders[t.text] && holder == "process" ||
				t.text == "getBuiltinModule" && !member && !key { // const { getBuiltinModule } = process
				return true
			}
		}
	}
	return false
}

// typeofOperand reports whether toks from i on are a name or a dotted path
// that ends typeof's operand (`typeof a.b === "x"`, not `typeof a.b()`), and
// where it ends. Anything that could call, index, tag or assign to it makes
// it not one.
func typeofOperand(toks []token, i int) (int, bool) {
	if i >= len(toks) || toks[i].kind != tokIdent || toks[i].text == "import" { // import.meta is module syntax
		return 0, false
	}
	for (punctAt(toks, i+1, ".") || punctAt(toks, i+1, "?.")) && i+2 < len(toks) &&
		(toks[i+2].kind == tokIdent || toks[i+2].kind == tokPrivate) {
		i += 2
	}
	if i+1 == len(toks) {
		return i, true
	}
	switch next := toks[i+1]; {
	case next.kind == tokTemplate:
		return 0, false // a tagged template calls it
	case next.kind != tokPunct:
		return i, true // as, in, instanceof, or a new statement
	case next.text == "!" || next.text == "=": // TypeScript's x!(...) or an assignment, but not != or ==
		return i, punctAt(toks, i+2, "=")
	}
	switch toks[i+1].text {
	case "(", "[", ".", "?.", "++", "--":
		return 0, false
	}
	return i, true
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
