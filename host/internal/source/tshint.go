package source

// Models send TypeScript without saying so: most requests name no
// language, and `const x: Shipment[] = …` then fails in the engine with a
// bare "expecting ';'". typeScriptHint finds, on the tokens, the forms that
// are TypeScript and never valid JavaScript: annotations after a
// declaration's name or a parameter, a function's return type, `x as T`,
// `x!.y`, and the declarations interface, type, enum and namespace. Only a
// cell with one pays for a parse (in the parser process): it runs as
// TypeScript when it does not parse as JavaScript and does as TypeScript.
// A JavaScript cell without them never leaves the fast path.
func typeScriptHint(toks []token) bool {
	var opens []string  // what opened each depth
	var fnParams []bool // per depth: the ( opened a function's parameters
	modules := false
	for _, t := range toks {
		if t.kind == tokIdent && (t.text == "import" || t.text == "export") {
			modules = true // their `as` is JavaScript
		}
	}
	for i, t := range toks {
		d := int(t.depth)
		if isPunct(t, ")") && d < len(fnParams) && fnParams[d] && punctAt(toks, i+1, ":") {
			return true // function f(): T
		}
		if d < len(opens) {
			opens, fnParams = opens[:d], fnParams[:d]
		}
		inner := ""
		if d > 0 && d-1 < len(opens) {
			inner = opens[d-1]
		}
		switch t.kind {
		case tokPunct:
			switch t.text {
			case "(", "[", "{", "${":
				for len(opens) < d {
					opens, fnParams = append(opens, ""), append(fnParams, false)
				}
				opens = append(opens[:d], t.text)
				fnParams = append(fnParams[:d], t.text == "(" && functionHead(toks, i))
			case "!":
				if i > 0 && t.start == toks[i-1].end && !t.nl && closesOperand(toks, i-1) &&
					!(punctAt(toks, i+1, "=") && toks[i+1].start == t.end) {
					return true // x!.y, x!
				}
			case ":":
				if inner == "(" && i >= 2 && toks[i-1].kind == tokIdent &&
					(isPunct(toks[i-2], "(") || isPunct(toks[i-2], ",")) {
					return true // (a: T, b: U)
				}
				if inner == "(" && i >= 3 && isPunct(toks[i-1], "?") && toks[i-2].kind == tokIdent &&
					(isPunct(toks[i-3], "(") || isPunct(toks[i-3], ",")) {
					return true // (a?: T)
				}
			case "<":
				if i >= 2 && toks[i-1].kind == tokIdent && toks[i-2].kind == tokIdent && toks[i-2].text == "function" {
					return true // function f<T>
				}
			}
		case tokIdent:
			if afterDot(toks, i) || isPropertyKey(toks, i) {
				continue
			}
			next := i + 1
			if next >= len(toks) {
				continue
			}
			n := toks[next]
			switch t.text {
			case "const", "let", "var":
				if n.kind == tokIdent && (punctAt(toks, next+1, ":") ||
					punctAt(toks, next+1, "!") && punctAt(toks, next+2, ":")) {
					return true // const x: T
				}
			case "as":
				if !modules && !t.nl && i > 0 && closesOperand(toks, i-1) && n.kind == tokIdent {
					return true // x as T
				}
			case "interface", "enum", "namespace":
				if n.kind == tokIdent && !n.nl && (punctAt(toks, next+1, "{") || t.text == "interface" &&
					(punctAt(toks, next+1, "<") || next+1 < len(toks) && toks[next+1].text == "extends")) {
					return true
				}
			case "type":
				if n.kind == tokIdent && !n.nl && (punctAt(toks, next+1, "=") && !punctAt(toks, next+2, "=") ||
					punctAt(toks, next+1, "<")) {
					return true // type X = …
				}
			}
		}
	}
	return false
}

// functionHead reports whether the ( at toks[i] opens a function
// declaration's or expression's parameters.
func functionHead(toks []token, i int) bool {
	j := i - 1
	if j >= 0 && toks[j].kind == tokIdent && toks[j].text != "function" {
		j--
	}
	if j >= 0 && isPunct(toks[j], "*") {
		j--
	}
	return j >= 0 && toks[j].kind == tokIdent && toks[j].text == "function" && !afterDot(toks, j)
}

// closesOperand reports whether toks[i] certainly ends an operand: a name
// that is not a keyword, a literal, or a closing ) or ].
func closesOperand(toks []token, i int) bool {
	t := toks[i]
	switch t.kind {
	case tokNumber, tokString:
		return true
	case tokTemplate:
		return t.closes
	case tokIdent:
		return afterDot(toks, i) || !reservedWords[t.text] && !operatorWords[t.text] || literalWords[t.text]
	case tokPunct:
		return t.text == ")" || t.text == "]"
	}
	return false
}
