package reliability

import (
	"context"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// bigCells are hostile cells too large for testdata: 200,000 levels of
// nesting, about 400 KB, which used to overflow the Go stack of the host's
// esbuild (a fatal error: the whole process died), and a flat cell past the
// size bound.
func bigCells() []hostileCase {
	const deep = 200_000
	brackets := "code mode source nests brackets deeper than 500 levels"
	nesting := "code mode source nests deeper than 500 levels"
	cell := func(name, src, lang, msg string) hostileCase {
		w := map[string]string{"status": host.StatusFailed.String(), "code": "invalid_input", "error": msg}
		if lang != "" {
			w["language"] = lang
		}
		return hostileCase{name: name, src: src, want: w}
	}
	r := strings.Repeat
	return []hostileCase{
		cell("brackets", "x;\nreturn "+r("[", deep)+r("]", deep), "", brackets),
		cell("brackets typescript", "x;\nreturn "+r("[", deep)+r("]", deep), "typescript", brackets),
		cell("transform typescript", "return "+r("(", deep)+"x"+r(")", deep), "typescript", brackets),
		cell("arrows", "x;\nreturn "+r("x=>", deep)+"x", "", nesting),
		cell("not", "x;\nreturn "+r("!", deep)+"x", "", nesting),
		cell("members", "x;\nreturn a"+r(".b", deep), "", nesting),
		cell("conditionals typescript", "return "+r("a?b:", deep)+"c", "typescript", nesting),
		cell("else if", "x;\nif(a)x;"+r("else if(a)x;", deep), "", nesting),
		cell("too large", r("x = 1;\n", 40_000), "", "code mode source is larger than 262144 bytes"),
	}
}

// TestParseBounds runs the big cells against the host and through mcpserve:
// each is refused with invalid_input and the bound's message, and both keep
// serving.
func TestParseBounds(t *testing.T) {
	w := newWorld(t)
	rt := newRuntime(t, w, corpusConfig)
	for _, c := range bigCells() {
		t.Run(c.name, func(t *testing.T) {
			run := prepare(t, rt, tool.Scope{AgentID: "agent", SessionKey: "sk", SessionID: "s-parse", RunID: "r-parse"})
			if d := c.check(run.Exec(context.Background(), "call_parse", c.args())); d != "" {
				t.Error(d)
			}
		})
	}
	cs, stop := serveStdio(t, rt)
	defer stop()
	for _, c := range bigCells() {
		t.Run("mcp "+c.name, func(t *testing.T) {
			args := map[string]any{"code": c.src}
			if l := c.want["language"]; l != "" {
				args["language"] = l
			}
			r, isError, err := callResult(context.Background(), cs, "exec", args)
			if err != nil {
				t.Fatal(err)
			}
			if d := c.check(r); d != "" || !isError {
				t.Errorf("%s (isError %v)", d, isError)
			}
		})
	}
	r, _, err := callResult(context.Background(), cs, "exec", map[string]any{"code": "return 'healthy'"})
	if err != nil || string(r.Value) != `"healthy"` {
		t.Fatalf("server unhealthy after the big cells: %v %s", err, describe(r))
	}
	if r := prepare(t, rt, testScope).Exec(context.Background(), "after", execArgs("return 'healthy'")); string(r.Value) != `"healthy"` {
		t.Fatalf("host unhealthy after the big cells: %s", describe(r))
	}
}
