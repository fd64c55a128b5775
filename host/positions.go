package host

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/source"
)

// cellFile is the file name the engine gives the cell in stacks.
const cellFile = "cell.js"

// wrapHead is what [abi.WrapCell] puts before the source on line 1.
var wrapHead = strings.IndexByte(abi.WrapCell("\x00"), 0)

// positions maps the cell.js positions in a guest error back to the user's
// code. The engine's line 1 starts with the wrapper's head and this exec's
// __cm_setup call, which shift every line-1 column; TypeScript is moreover
// reprinted by esbuild, and its source map leads back. Positions in the host's
// own code (esbuild's helpers, the wrapper's closing line) are not the
// user's: frames there are dropped, and a bare position, such as a syntax
// error's at the end of the input, moves to the nearest user code. A line-1
// column inside the prefix becomes column 1: QuickJS gives column 1 to a
// frame whose position it does not know (a return in a function on line 1),
// and the prefix's own code, the call of __cm_setup, is on the user's line 1.
//
// It lives in the run's state, so a parked run resumed by wait keeps it.
// Nothing is computed until a failure needs it.
type positions struct {
	js     string      // the JavaScript after the prefix
	lines  int         // js's line count, once counted (a message may hold many positions)
	prefix int         // bytes before js on line 1, as the engine counts columns
	ts     *source.Map // nil when the JavaScript is the code as written
}

// prefixed records the prefix put before js and returns the engine's source.
func (p *positions) prefixed(prefix, js string) string {
	p.js, p.prefix = js, wrapHead+len(prefix)
	return prefix + js
}

// failure is [Run.failure] with the failure's positions mapped back.
func (st *state) failure(f *abi.Failure) Result {
	if f.Kind != abi.FailureGuestException && f.Kind != abi.FailureStackOverflow {
		return st.run.failure(f)
	}
	// The result keeps at most maxOutputBytes of either: map no more than
	// that (a guest can throw megabytes of "cell.js:1:1").
	n := st.run.rt.bounds.MaxOutputBytes
	mapped := *f
	mapped.Message = st.pos.rewrite(bridge.Truncate(f.Message, n))
	mapped.Stack = dropHostFrames(st.pos.rewrite(bridge.Truncate(f.Stack, n)))
	return st.run.failure(&mapped)
}

// hostFrame matches a stack frame in the scripts the host and the engines put
// into every VM; they are not the user's code, and their positions would
// only confuse a model.
var hostFrame = func() *regexp.Regexp {
	names := []string{regexp.QuoteMeta("bridge.js"), regexp.QuoteMeta("prelude.js")}
	for _, sc := range abi.EnvScripts {
		names = append(names, regexp.QuoteMeta(sc.Name))
	}
	return regexp.MustCompile(`^\s*at (?:__cm_\S* .*|.*\((?:` + strings.Join(names, "|") + `):\d+(?::\d+)?\))\s*$`)
}()

func dropHostFrames(stack string) string {
	if !strings.Contains(stack, ".js:") && !strings.Contains(stack, "__cm_") {
		return stack
	}
	lines := strings.Split(stack, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !hostFrame.MatchString(l) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

var cellPosition = regexp.MustCompile(`\bcell\.js:(\d+):(\d+)`)

// rewrite maps every cell.js:L:C in text, line by line.
func (p *positions) rewrite(text string) string {
	if !strings.Contains(text, cellFile+":") {
		return text
	}
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		hostCode := false
		l = cellPosition.ReplaceAllStringFunc(l, func(m string) string {
			sub := cellPosition.FindStringSubmatch(m)
			line, err1 := strconv.Atoi(sub[1])
			col, err2 := strconv.Atoi(sub[2])
			if err1 != nil || err2 != nil {
				return m
			}
			line, col, user := p.user(line, col)
			hostCode = hostCode || !user
			return cellFile + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
		})
		if hostCode && isFrame(l) {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n")
}

// isFrame reports whether a stack line is a call frame, "at f (cell.js:L:C)",
// rather than a bare position such as a syntax error's "at cell.js:L:C".
func isFrame(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "at ") && strings.HasSuffix(l, ")")
}

// user maps an engine position to the user's line and byte column; user is
// false for a position in the host's code, which it maps to the nearest user
// code.
func (p *positions) user(line, col int) (int, int, bool) {
	if line == 1 {
		col = max(1, col-p.prefix)
	}
	if p.lines == 0 {
		p.lines = strings.Count(p.js, "\n") + 1
	}
	if line < 1 || line > p.lines { // the wrapper's closing line
		if p.ts != nil {
			l, c := p.ts.End()
			return l, c, false
		}
		last := p.js[strings.LastIndexByte(p.js, '\n')+1:]
		return p.lines, len(last) + 1, false
	}
	if p.ts != nil {
		return p.ts.Position(line, col)
	}
	return line, col, true
}
