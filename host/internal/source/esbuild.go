package source

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
)

// A cell is the body of an async function (the runtime evaluates
// `(async () => { <code> })()`), so it is parsed and transformed inside the
// same wrapper: top-level return and await are legal, and the wrapper line is
// subtracted from diagnostics. esbuild refuses a top-level return next to a
// top-level await, which is why the TypeScript output is not produced bare.
const (
	wrapOpen  = "(async () => {\n"
	wrapClose = "\n})"
)

// esbuild is one run of esbuild's transform. Check is written once against
// it and runs twice where it must: in the host process with [refuse], where
// the first need of esbuild stops the check, and then whole in a parser
// process (worker.go) with [here], which is esbuild itself. So nothing
// untrusted reaches esbuild in the host process, and cells that never need
// it (most JavaScript) never leave the process.
type esbuild func(input string, opts api.TransformOptions) api.TransformResult

// here runs esbuild in this process: only in a parser process, and in the
// tests of this package.
func here(input string, opts api.TransformOptions) api.TransformResult {
	return api.Transform(input, opts)
}

// needParser is refuse's panic value, recovered by Check alone.
type needParser struct{}

// refuse stops the check that wanted esbuild. A panic, not an error result,
// because the places that ask esbuild answer yes/no questions several calls
// deep; Check recovers exactly this value and re-panics anything else.
func refuse(string, api.TransformOptions) api.TransformResult { panic(needParser{}) }

// parseCalls counts esbuild parses made by the shell detector, so a test can
// prove that ordinary cells never pay for one; transformCalls counts
// TypeScript transforms, so a test can prove refused cells never reach one.
var parseCalls, transformCalls atomic.Int64

// parses reports whether code is a valid async-function body. It is a real
// parse (esbuild's), including early errors such as redeclarations, which the
// hoisting test of the shell detector relies on.
func parses(code string, typescript bool, run esbuild) bool {
	parseCalls.Add(1)
	opts := api.TransformOptions{Loader: api.LoaderJS, LogLevel: api.LogLevelSilent}
	if typescript {
		opts = typeScriptOptions()
	}
	return len(run(wrapOpen+code+wrapClose, opts).Errors) == 0
}

// The TypeScript path is set up on first use only: the contract says
// JavaScript cells and disabled code mode never load the compiler. In Go the
// code is linked either way; what stays untouched is this path, and tsLoads
// lets a test prove it (it is 0 in a process that only saw JavaScript).
var (
	tsOnce    sync.Once
	tsOptions api.TransformOptions
	tsLoads   atomic.Int64
)

func typeScriptOptions() api.TransformOptions {
	tsOnce.Do(func() {
		tsLoads.Add(1)
		tsOptions = api.TransformOptions{
			Loader:   api.LoaderTS,
			Target:   api.ES2022,
			Format:   api.FormatDefault, // no module wrapper, no bundling
			LogLevel: api.LogLevelSilent,
			// No minification and no renaming, so the output stays readable
			// and statements stay in source order.
		}
	})
	return tsOptions
}

// maxDiagnostics bounds the diagnostics quoted in one error message.
const maxDiagnostics = 5

// transformTypeScript strips types. It does no type checking and no module
// resolution. esbuild reprints the code, so line numbers of the output
// follow the source statement by statement but are not guaranteed equal:
// the returned Map, from esbuild's source map, leads back to the user's.
func transformTypeScript(code string, run esbuild) (string, *Map, error) {
	transformCalls.Add(1)
	opts := typeScriptOptions() // a copy; the shell detector's parses need no map
	opts.Sourcemap, opts.SourcesContent = api.SourceMapExternal, api.SourcesContentExclude
	res := run(wrapOpen+code+wrapClose, opts)
	if len(res.Errors) > 0 {
		return "", nil, reject(ReasonTypeScriptTransformFailed,
			"typescript transform failed: "+formatDiagnostics(res.Errors, strings.Split(code, "\n")))
	}
	out := string(res.Code)
	// esbuild puts helpers (for example for decorators) above the wrapper;
	// they are plain declarations, so they can live inside the body.
	open := strings.Index(out, wrapOpen)
	if open != 0 && (open < 0 || out[open-1] != '\n') {
		return "", nil, reject(ReasonTypeScriptTransformFailed, "typescript transform failed: unexpected output")
	}
	rest := out[open+len(wrapOpen):]
	end := strings.LastIndex(rest, "});")
	if end < 0 {
		return "", nil, reject(ReasonTypeScriptTransformFailed, "typescript transform failed: unexpected output")
	}
	js := out[:open] + rest[:end]
	// A map that does not decode costs only positions in error messages:
	// an empty one then maps everything to the start. A TypeScript cell
	// always has a Map, which is how the host tells it ran as TypeScript.
	m, err := newMap(res.Map, strings.Count(out[:open], "\n"), js, code)
	if err != nil {
		m = &Map{js: strings.Split(js, "\n"), code: strings.Split(code, "\n")}
		m.lines = make([][]mapping, len(m.js))
		m.endLine, m.endCol = endOf(code)
	}
	return js, m, nil
}

// formatDiagnostics renders esbuild errors as "msg (line L, column C)" with
// lines counted in the user's code and 1-based byte columns. An error esbuild
// finds in the wrapper (an unclosed brace) is reported at the end of the code.
func formatDiagnostics(msgs []api.Message, lines []string) string {
	var parts []string
	for i, m := range msgs {
		if i == maxDiagnostics {
			parts = append(parts, fmt.Sprintf("and %d more", len(msgs)-i))
			break
		}
		text := m.Text
		if len(text) > 200 {
			text = strings.ToValidUTF8(text[:200], "") + "..."
		}
		if loc := m.Location; loc != nil {
			line, col := loc.Line-1, loc.Column+1
			if line > len(lines) { // in the wrapper's closing line
				text = "Unexpected end of code"
				line, col = len(lines), len(lines[len(lines)-1])+1
			}
			text += fmt.Sprintf(" (line %d, column %d)", max(line, 1), col)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "; ")
}
