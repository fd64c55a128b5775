// Package source checks the code of a code-mode exec before it reaches the
// engine: the code/command alias, the language, shell-shaped input, module
// access and the TypeScript transform, in the reference's order. It also
// forgives two habits of models: a cell wrapped in a markdown fence runs as
// its body, and a trailing expression is the cell's value.
//
// Every function is pure and safe for concurrent use. Rejections are *Error
// values carrying the public code invalid_input and a finer [Reason]; the host
// turns them into failed results, never panics.
package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/abi"
)

// Reason is the finer cause of an invalid_input rejection, reported next to
// the public code so nothing of the older seed's vocabulary is lost.
type Reason string

// Reasons used by this package.
const (
	ReasonInvalidArguments          Reason = "invalid_arguments"
	ReasonUnsupportedLanguage       Reason = "unsupported_language"
	ReasonShellSource               Reason = "shell_source"
	ReasonModuleAccessDenied        Reason = "module_access_denied"
	ReasonTypeScriptTransformFailed Reason = "typescript_transform_failed"
	ReasonMarkdownProse             Reason = "markdown_prose"
)

// Languages accepted by exec.
const (
	JavaScript = "javascript"
	TypeScript = "typescript"
)

// Messages shown to the model; the wording follows the reference exactly.
const (
	MsgAliasMismatch = "code and command must match when both are provided."
	MsgEmptyCode     = "code or command must be a non-empty string."
	MsgBadLanguage   = "language must be javascript or typescript."
	MsgRestartSafe   = "restartSafe must be a boolean."
	MsgShellSource   = "code-mode exec runs JavaScript or TypeScript, not shell commands. " +
		"Call shell, file, or other tools from guest JavaScript with tools.callValue and an exact " +
		"tool id from ALL_TOOLS or tools.search. Do not retry the same shell command as code."
	MsgModuleAccess = "code mode module access is disabled."
	// MsgMarkdownProse is codemode's own: the reference has no fences.
	MsgMarkdownProse = "code-mode exec runs JavaScript or TypeScript, and this cell is prose around a " +
		"markdown fence. Send only the code: the fence's content, or the fence alone."
)

// Error is a rejected exec input. errors.Is(err, abi.CodeInvalidInput) holds.
type Error struct {
	Reason  Reason
	Message string
}

func (e *Error) Error() string { return e.Message }

// Code is always abi.CodeInvalidInput: every input problem is the model's to fix.
func (e *Error) Code() abi.ErrorCode { return abi.CodeInvalidInput }

// Is makes errors.Is(err, abi.CodeInvalidInput) true.
func (e *Error) Is(target error) bool { return target == abi.CodeInvalidInput }

func reject(r Reason, msg string) error { return &Error{Reason: r, Message: msg} }

// Input is the decoded argument object of exec.
type Input struct {
	Code        string // from code, or its alias command
	Language    string // JavaScript unless the caller asked for TypeScript
	RestartSafe bool
}

// ParseInput decodes exec's arguments: {code?, command?, language?,
// restartSafe?}. command is an alias of code so hook policies can treat the
// shell exec and the code-mode exec alike; when both are present they must be
// equal. A null field counts as absent and unknown keys are ignored, as a
// provider may add its own.
func ParseInput(args []byte) (Input, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return Input{}, reject(ReasonInvalidArguments, MsgEmptyCode)
	}
	field := func(k string) (json.RawMessage, bool) {
		v := bytes.TrimSpace(m[k])
		return v, len(v) != 0 && string(v) != "null"
	}
	code, hasCode := field("code")
	command, hasCommand := field("command")
	var c, cmd string
	codeOK := hasCode && json.Unmarshal(code, &c) == nil
	cmdOK := hasCommand && json.Unmarshal(command, &cmd) == nil
	if codeOK && cmdOK && c != cmd {
		return Input{}, reject(ReasonInvalidArguments, MsgAliasMismatch)
	}
	if !codeOK {
		c = cmd
	}
	if hasCode && !codeOK || hasCommand && !cmdOK || strings.TrimSpace(c) == "" {
		return Input{}, reject(ReasonInvalidArguments, MsgEmptyCode)
	}
	in := Input{Code: c, Language: JavaScript}
	if v, ok := field("language"); ok {
		if json.Unmarshal(v, &in.Language) != nil || in.Language != JavaScript && in.Language != TypeScript {
			return Input{}, reject(ReasonInvalidArguments, MsgBadLanguage)
		}
	}
	if v, ok := field("restartSafe"); ok {
		if json.Unmarshal(v, &in.RestartSafe) != nil {
			return Input{}, reject(ReasonInvalidArguments, MsgRestartSafe)
		}
	}
	return in, nil
}

// Check runs the checks that follow argument decoding, in the reference's
// order: language enabled, shell-shaped source, module access, then for
// TypeScript the transform and a second module check on its output. Before
// the shell check come the bounds on nesting and size (bounds.go), which the
// reference lacks: they must run before anything parses the code.
//
// Check forgives two habits of models that the reference did not: a cell
// that is one markdown fence runs as the fence's body (fence.go), and a cell
// that ends in an expression and has no return of its own returns that
// expression (tail.go). It returns the JavaScript to evaluate and a [Map]
// from it back to the code: for TypeScript always (esbuild reprints it), for
// JavaScript only when the trailing expression was rewritten; nil means the
// JavaScript is the code as written, line for line and column for column.
//
// language "" means JavaScript. languages is the configured set; empty means
// both, matching the configuration's own rule. The TypeScript compiler path is
// entered only for TypeScript cells.
//
// The checks that need esbuild (TypeScript, shell-shaped JavaScript, a
// trailing expression the tokens cannot place) run in a parser process
// within ctx (worker.go); the rest, most JavaScript cells, never leave this
// process. owner names who the cell is for (the host passes its session):
// one owner never holds every parser. Errors are *Error, ctx's error at its
// deadline or cancellation, or [ErrParserUnavailable].
func Check(ctx context.Context, owner, code, language string, languages []string) (string, *Map, error) {
	js, m, err := checkHere(code, language, languages)
	if err != errNeedParser {
		return js, m, err
	}
	return parseOut(ctx, owner, request{Code: code, Language: language, Languages: languages})
}

// errNeedParser is checkHere's answer for a check that needs esbuild.
var errNeedParser = errors.New("the check needs the parser process")

// checkHere runs the check in this process until it first needs esbuild.
func checkHere(code, language string, languages []string) (js string, m *Map, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(needParser); !ok {
				panic(r)
			}
			js, m, err = "", nil, errNeedParser
		}
	}()
	return check(code, language, languages, refuse)
}

// check is Check with esbuild run by run.
func check(code, language string, languages []string, run esbuild) (string, *Map, error) {
	if language == "" {
		language = JavaScript
	}
	if language != JavaScript && language != TypeScript {
		return "", nil, reject(ReasonInvalidArguments, MsgBadLanguage)
	}
	code, fence := unwrapFence(code)
	enabled := func(l string) bool { return len(languages) == 0 || slices.Contains(languages, l) }
	if fence == fenceTypeScript && language == JavaScript && enabled(TypeScript) {
		// The fence says TypeScript and the request did not: most requests
		// never name a language, so the fence is the better word. Where
		// TypeScript is disabled the cell stays JavaScript, which still runs
		// a fence of plain JavaScript tagged ts.
		language = TypeScript
	}
	if !enabled(language) {
		return "", nil, reject(ReasonUnsupportedLanguage, "code mode "+language+" input is disabled.")
	}
	if fence == fenceShell {
		return "", nil, reject(ReasonShellSource, MsgShellSource)
	}
	ts := language == TypeScript
	if err := checkBounds(code, ts); err != nil {
		return "", nil, err
	}
	tokens := lex(code) // for the join bound and the module check
	if stringJoins(tokens) > MaxStringJoins {
		return "", nil, reject(ReasonSourceTooComplex, MsgStringJoins)
	}
	if fence == fenceNone && hasFenceLine(code) {
		// Before the shell check: "Here is the code:" reads as a command. A
		// line that starts with three backticks is markdown even where it
		// happens to parse (two fences are a chain of template literals).
		return "", nil, reject(ReasonMarkdownProse, MsgMarkdownProse)
	}
	user := code // the model's code, for the end position of its Map
	shape, err := reshape(code, tokens)
	if err != nil {
		return "", nil, err
	}
	var ins []insertion // what reshape inserted
	if shape != nil {
		code, ins, tokens = shape.code, shape.ins, lex(shape.code)
	}
	if !ts && typeScriptHint(tokens.toks) {
		if !enabled(TypeScript) {
			if readsAsTypeScript(code, run) {
				return "", nil, reject(ReasonUnsupportedLanguage, MsgTypeScriptDisabled)
			}
		} else {
			// A cell that parses as neither gets TypeScript's diagnostics,
			// after the shell and module checks, which come first.
			ts, err = typeScriptAfterAll(code, run)
		}
	}
	guessErr := err
	if ShellShaped(code, ts, run) {
		return "", nil, reject(ReasonShellSource, MsgShellSource)
	}
	denied, lx := moduleAccessOf(code, tokens)
	if denied {
		return "", nil, reject(ReasonModuleAccessDenied, MsgModuleAccess)
	}
	if guessErr != nil {
		return "", nil, guessErr
	}
	if !ts {
		js, m := returnTail(code, lx, ins, user, run)
		return js, m, nil
	}
	js, m, err := transformTypeScript(code, run)
	if err != nil {
		return "", nil, err
	}
	denied, out := moduleAccess(js)
	if denied {
		return "", nil, reject(ReasonModuleAccessDenied, MsgModuleAccess)
	}
	if js2, m2, ok := returnTailTS(code, lx, js, out, ins, user, run); ok {
		return js2, m2, nil
	}
	m.ins = ins
	m.endLine, m.endCol = endOf(user)
	return js, m, nil
}

// MsgTypeScriptDisabled is codemode's own: the reference ran no guess.
const MsgTypeScriptDisabled = "this cell is TypeScript: it parses with language \"typescript\" but not as " +
	"JavaScript, and code mode typescript input is disabled. Send JavaScript: drop the type annotations."

// typeScriptAfterAll decides whether a JavaScript cell with TypeScript's
// forms runs as TypeScript: when it does not parse as JavaScript and does
// as TypeScript. One that parses as neither gets the TypeScript diagnostics,
// which point at the mistake rather than at the first annotation.
func typeScriptAfterAll(code string, run esbuild) (bool, error) {
	if parses(code, false, run) || checkBounds(code, true) != nil {
		return false, nil
	}
	if parses(code, true, run) {
		return true, nil
	}
	_, _, err := transformTypeScript(code, run)
	if se, ok := err.(*Error); ok {
		se.Message = "this cell reads as TypeScript (language \"typescript\") and does not parse: " + se.Message
		return false, se
	}
	return false, nil
}

// readsAsTypeScript reports whether code parses as TypeScript and not as
// JavaScript.
func readsAsTypeScript(code string, run esbuild) bool {
	return !parses(code, false, run) && checkBounds(code, true) == nil && parses(code, true, run)
}
