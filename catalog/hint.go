package catalog

import (
	"encoding/json"
	"slices"
	"strings"
)

// Hint is a compact TypeScript rendering of a JSON Schema.
//
// Complete reports whether Text describes the schema exactly: every keyword
// was understood, nothing was dropped for a limit, and objects are closed
// (additionalProperties: false). An incomplete hint is still a sound guide
// for the common case.
type Hint struct {
	Text     string
	Complete bool
}

// Hint limits. All lengths are UTF-16 code units.
const (
	inputHintChars   = 300
	inputHintProps   = 16
	inputHintDepth   = 4
	outputHintChars  = 800
	outputHintProps  = 20
	outputHintDepth  = 6
	maxPropertyName  = 128
	maxUnionVariants = 4
	maxLiterals      = 8
	maxLiteralChars  = 96
	maxUnionNesting  = 32
	unknownType      = "unknown"
	truncationMarker = "; ..."
	objectClose      = " }"
	nullableSuffix   = " | null"
)

// incompleteKeywords are understood only well enough to know that the hint
// cannot describe them.
var incompleteKeywords = []string{
	"$ref", "$dynamicRef", "$recursiveRef", "allOf", "patternProperties",
	"unevaluatedProperties", "dependentSchemas", "dependencies", "if", "then", "else",
	"prefixItems", "unevaluatedItems",
}

// unionBaseKeys may not be combined with anyOf/oneOf.
var unionBaseKeys = []string{"const", "enum", "type", "properties", "required", "additionalProperties", "items"}

// annotationKeys never constrain a value.
var annotationKeys = map[string]bool{
	"description": true, "title": true, "default": true, "examples": true, "$schema": true,
	"$id": true, "$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"format": true, "$defs": true, "definitions": true, "nullable": true,
}

type hintLimits struct {
	chars, props, depth int
	input               bool // numeric bounds are rendered (and checked) in input hints only
}

var (
	inputLimits  = hintLimits{inputHintChars, inputHintProps, inputHintDepth, true}
	outputLimits = hintLimits{outputHintChars, outputHintProps, outputHintDepth, false}
)

// InputHint renders the compact input hint of a tool's input schema: at most
// 300 UTF-16 units, 16 properties per object and 4 levels of nesting, with
// numeric bounds as comments (number /* integer, >= 0 */). Each object keeps
// the properties that fit in 300 units and marks the rest with "; ..."; a
// hint that is still longer than 300 units (the marker included) is never cut
// further: like a schema that is not a JSON object or carries a malformed
// numeric bound, it renders as "unknown" and is incomplete. The empty schema
// {} renders as "unknown" and is complete.
func InputHint(schema json.RawMessage) Hint {
	return renderHint(schema, inputLimits)
}

// OutputHint renders the compact hint of a declared output schema: at most 800
// UTF-16 units, 20 properties per object and 6 levels. Numeric bounds are not
// rendered. Only a complete output hint is ever shown to the model; Build uses
// it for trusted (core and plugin) entries only.
func OutputHint(schema json.RawMessage) Hint {
	return renderHint(schema, outputLimits)
}

func renderHint(schema json.RawMessage, lim hintLimits) Hint {
	v, ok := decodeSchema(schema)
	if !ok {
		return Hint{unknownType, false}
	}
	return hintOf(v, lim)
}

func hintOf(v any, lim hintLimits) Hint {
	h := hinter{lim: lim}
	text, complete := h.render(v, 0, 0)
	if h.malformed || u16len(text) > lim.chars {
		return Hint{unknownType, false}
	}
	return Hint{text, complete}
}

type hinter struct {
	lim       hintLimits
	malformed bool
}

// render returns the hint of schema v. depth counts object and array nesting;
// nest counts union nesting. Only objects are bounded as they render (each by
// the hint's limit); the caller checks the length of what it gets.
func (h *hinter) render(v any, depth, nest int) (string, bool) {
	obj, ok := v.(*jsonObject)
	if !ok {
		return unknownType, false
	}
	m := *obj
	if len(m) == 0 {
		return unknownType, true
	}
	if depth > h.lim.depth || nest > maxUnionNesting {
		return unknownType, false
	}
	complete := true
	for _, k := range incompleteKeywords {
		if m.has(k) {
			complete = false
			break
		}
	}
	nullable := false
	if nv, has := m.get("nullable"); has {
		b, ok := nv.(bool)
		if !ok {
			return unknownType, false
		}
		nullable = b
	}
	text, c := h.base(m, depth, nest)
	complete = complete && c
	// nullable widens a type, never a literal: a const or an enum rendered as
	// its literals already says every value it allows, null among them or not.
	literals := c && !m.has("anyOf") && !m.has("oneOf") && (m.has("const") || m.has("enum"))
	if nullable && !literals && text != unknownType && text != "null" && !strings.HasSuffix(text, nullableSuffix) {
		text += nullableSuffix
	}
	return text, complete
}

func (h *hinter) base(m jsonObject, depth, nest int) (string, bool) {
	anyOf, hasAny := m.get("anyOf")
	oneOf, hasOne := m.get("oneOf")
	if hasAny || hasOne {
		if hasAny && hasOne {
			return unknownType, false
		}
		for _, k := range unionBaseKeys {
			if m.has(k) {
				return unknownType, false
			}
		}
		variants := anyOf
		if hasOne {
			variants = oneOf
		}
		list, ok := variants.([]any)
		if !ok || len(list) == 0 {
			return unknownType, false
		}
		return h.union(list, depth, nest+1)
	}
	if c, has := m.get("const"); has {
		// One literal, at any length: the bound on the whole hint limits it.
		text, _, ok := literal(c)
		if !ok {
			return unknownType, false
		}
		return text, true
	}
	if e, has := m.get("enum"); has {
		list, ok := e.([]any)
		if !ok || len(list) == 0 {
			return unknownType, false
		}
		return literalUnion(list)
	}
	t, hasType := m.get("type")
	if !hasType {
		if m.has("properties") || m.has("additionalProperties") || m.has("required") {
			return h.object(m, depth, nest)
		}
		if m.has("items") {
			return h.typed("array", m, depth, nest)
		}
		for _, member := range m {
			if !annotationKeys[member.key] {
				return unknownType, false
			}
		}
		return unknownType, true
	}
	switch tt := t.(type) {
	case string:
		return h.typed(tt, m, depth, nest)
	case []any:
		if len(tt) == 0 {
			return unknownType, false
		}
		names, ok := typeNames(tt)
		if !ok {
			return unknownType, false
		}
		parts := make([]string, 0, len(names))
		complete := true
		for _, name := range names {
			text, c := h.typed(name, m, depth, nest)
			complete = complete && c
			parts = appendUnique(parts, text)
		}
		return joinUnion(parts, complete)
	default:
		return unknownType, false
	}
}

// typeNames returns the distinct names of a type list in first-seen order;
// ok is false if one is not a string. Each name renders once: a list that
// repeats "array" would otherwise render the items once per repetition, and
// nested lists multiply, so a downstream server's 1 KB schema (16 repeats,
// 7 levels) took 78 s to hint. A repeat renders the same text anyway.
func typeNames(list []any) (names []string, ok bool) {
	seen := map[string]bool{}
	for _, one := range list {
		name, ok := one.(string)
		if !ok {
			return nil, false
		}
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names, true
}

// typed renders schema m as the single JSON type t.
func (h *hinter) typed(t string, m jsonObject, depth, nest int) (string, bool) {
	switch t {
	case "string", "boolean", "null":
		return t, true
	case "integer", "number":
		if !h.lim.input {
			return "number", true
		}
		return h.number(t == "integer", m), true
	case "array":
		items, has := m.get("items")
		if !has {
			return "Array<unknown>", true
		}
		if _, tuple := items.([]any); tuple {
			return "Array<unknown>", false
		}
		inner, c := h.render(items, depth+1, nest)
		return "Array<" + inner + ">", c
	case "object":
		return h.object(m, depth, nest)
	default:
		return unknownType, false
	}
}

// number renders a numeric input type with its bounds, in the order integer,
// minimum, maximum, exclusiveMinimum, exclusiveMaximum. A malformed bound
// poisons the whole hint.
func (h *hinter) number(integer bool, m jsonObject) string {
	var parts []string
	if integer {
		parts = append(parts, "integer")
	}
	for _, b := range [...]struct{ key, op string }{
		{"minimum", ">="}, {"maximum", "<="}, {"exclusiveMinimum", ">"}, {"exclusiveMaximum", "<"},
	} {
		v, has := m.get(b.key)
		if !has {
			continue
		}
		n, ok := v.(json.Number)
		if !ok {
			h.malformed = true
			return "number"
		}
		f, ok := parseNumber(n)
		if !ok {
			h.malformed = true
			return "number"
		}
		parts = append(parts, b.op+" "+jsNumber(f))
	}
	if len(parts) == 0 {
		return "number"
	}
	return "number /* " + strings.Join(parts, ", ") + " */"
}

// union renders anyOf/oneOf variants. Variants that are all consts form a
// literal union; past its limits, up to four of them are still their literals
// (joined like any variants), and more widen to their common type.
func (h *hinter) union(variants []any, depth, nest int) (string, bool) {
	consts := make([]any, 0, len(variants))
	for _, v := range variants {
		vm, ok := v.(*jsonObject)
		if !ok {
			consts = nil
			break
		}
		c, has := vm.get("const")
		if !has {
			consts = nil
			break
		}
		consts = append(consts, c)
	}
	if consts != nil {
		text, complete := literalUnion(consts)
		if complete || len(variants) > maxUnionVariants {
			return text, complete
		}
	}
	if len(variants) > maxUnionVariants {
		return unknownType, false
	}
	parts := make([]string, 0, len(variants))
	complete := true
	for _, v := range variants {
		text, c := h.render(v, depth, nest)
		complete = complete && c
		if text == unknownType {
			return unknownType, complete
		}
		parts = appendUnique(parts, text)
	}
	return joinUnion(parts, complete)
}

func joinUnion(parts []string, complete bool) (string, bool) {
	if slices.Contains(parts, unknownType) {
		return unknownType, complete
	}
	return strings.Join(parts, " | "), complete
}

func appendUnique(parts []string, s string) []string {
	if slices.Contains(parts, s) {
		return parts
	}
	return append(parts, s)
}

// literalUnion renders JSON values as a union of literal types: at most 8
// distinct values and 96 UTF-16 units. Past a limit it widens to the common
// primitive type (incomplete), or to unknown when the values are mixed.
func literalUnion(values []any) (string, bool) {
	parts := make([]string, 0, len(values))
	kind := ""
	mixed := false
	for _, v := range values {
		text, k, ok := literal(v)
		if !ok {
			return unknownType, false
		}
		if kind == "" {
			kind = k
		} else if kind != k {
			mixed = true
		}
		parts = appendUnique(parts, text)
	}
	text := strings.Join(parts, " | ")
	if len(parts) <= maxLiterals && u16len(text) <= maxLiteralChars {
		return text, true
	}
	if mixed || kind == "null" {
		return unknownType, false
	}
	return kind, false
}

// literal renders a primitive JSON value as a TypeScript literal type and
// names its primitive type.
func literal(v any) (text, kind string, ok bool) {
	switch x := v.(type) {
	case string:
		return jsonQuote(x), "string", true
	case json.Number:
		f, ok := parseNumber(x)
		if !ok {
			return "", "", false
		}
		return jsNumber(f), "number", true
	case bool:
		if x {
			return "true", "boolean", true
		}
		return "false", "boolean", true
	case nil:
		return "null", "null", true
	default:
		return "", "", false
	}
}

// object renders an object schema. Required keys come first, then optional
// keys, each group in UTF-16 order; keys that are not identifiers are
// JSON-quoted. The object is bounded by the hint's limit, wherever it is:
// parts are kept while "{ parts }" fits, and those that do not are dropped
// behind "; ...". The marker itself may take the text past the limit; the
// caller, not this object, decides what then becomes of it.
func (h *hinter) object(m jsonObject, depth, nest int) (string, bool) {
	complete := true
	var props []property
	if p, has := m.get("properties"); has {
		pm, ok := p.(*jsonObject)
		if !ok {
			return unknownType, false
		}
		props = properties(*pm)
	}
	open := false
	closed := false
	if ap, has := m.get("additionalProperties"); has {
		switch a := ap.(type) {
		case bool:
			open = a
			closed = !a
		case *jsonObject:
			open = true
		}
	}
	if !closed {
		complete = false
	}
	nRequired := 0
	if r, has := m.get("required"); has {
		list, ok := r.([]any)
		if !ok {
			complete = false
		}
		for _, item := range list {
			name, ok := item.(string)
			if !ok {
				complete = false
				continue
			}
			nRequired++
			if i, in := slices.BinarySearchFunc(props, name, byName); in {
				props[i].required = true
			} else {
				complete = false // a required key the hint cannot show
			}
		}
	}
	if len(props) == 0 {
		if closed && nRequired == 0 {
			return "{}", complete
		}
		return "{ ... }", false
	}
	slices.SortFunc(props, func(a, b property) int {
		if a.required != b.required {
			if a.required {
				return -1
			}
			return 1
		}
		return compare16(a.name, b.name)
	})

	var parts []string // each part already carries its "; " separator
	used := u16len("{ ")
	truncated := false
	for _, prop := range props {
		k := prop.name
		if len(parts) >= h.lim.props {
			truncated = true
			break
		}
		if u16len(k) > maxPropertyName {
			truncated = true
			continue
		}
		name := k
		if !isIdentifier(k) {
			name = jsonQuote(k)
		}
		prefix := name + "?: "
		if prop.required {
			prefix = name + ": "
		}
		if len(parts) > 0 {
			prefix = "; " + prefix
		}
		text, c := h.render(prop.schema, depth+1, nest)
		part := prefix + text
		n := u16len(part)
		if used+n+len(objectClose) > h.lim.chars {
			truncated = true
			break
		}
		parts = append(parts, part)
		used += n
		complete = complete && c
	}
	marker := ""
	if truncated || open {
		complete = false
		marker = truncationMarker
		if len(parts) == 0 {
			marker = "..."
		}
	}
	var b strings.Builder
	b.WriteString("{ ")
	for _, p := range parts {
		b.WriteString(p)
	}
	b.WriteString(marker)
	b.WriteString(objectClose)
	return b.String(), complete
}

// property is one distinct key of an object schema's properties.
type property struct {
	name     string
	schema   any
	required bool
}

func byName(p property, name string) int { return strings.Compare(p.name, name) }

// properties returns the distinct properties of pm sorted by name in byte
// order, so that required names can be found by binary search. Of duplicate
// keys the last one wins, as in encoding/json.
func properties(pm jsonObject) []property {
	props := make([]property, len(pm))
	for i, mb := range pm {
		props[i] = property{name: mb.key, schema: mb.value}
	}
	slices.SortStableFunc(props, func(a, b property) int { return strings.Compare(a.name, b.name) })
	out := props[:0]
	for _, p := range props {
		if n := len(out); n > 0 && out[n-1].name == p.name {
			out[n-1] = p
			continue
		}
		out = append(out, p)
	}
	return out
}
