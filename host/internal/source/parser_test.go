package source

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCheckThroughParser runs Check as the host does: the TypeScript and
// shell-shaped cells go to a parser process (this test binary, started
// again) and come back as the in-process check would have them.
func TestCheckThroughParser(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ code, lang string }{
		{"const x: number = 41\nx + 1", TypeScript},
		{"interface A { b: string }\nreturn 1 as number", TypeScript},
		{"ls -la", JavaScript},
		{"foo;\nreturn 1", JavaScript},
		{"let x: = 1", TypeScript},
	} {
		js, m, err := Check(ctx, c.code, c.lang, nil)
		wantJS, wantMap, wantErr := checkLocal(c.code, c.lang, nil)
		if js != wantJS || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%q: got %q, %v; want %q, %v", c.code, js, err, wantJS, wantErr)
		}
		if (m == nil) != (wantMap == nil) || m != nil && m.wire().EndLine != wantMap.wire().EndLine {
			t.Errorf("%q: map %+v, want %+v", c.code, m.wire(), wantMap.wire())
		}
	}
}

// TestParserBounds: a cell whose transform takes gigabytes ends its parser
// at the memory bound, and one that runs past the deadline is cut there;
// the next cell gets a fresh parser.
func TestParserBounds(t *testing.T) {
	fold := `const s="x"` + strings.Repeat("+1", 120_000) + ";"
	_, _, err := Check(context.Background(), fold, TypeScript, nil)
	var se *Error
	if !errors.As(err, &se) || se.Reason != ReasonSourceTooComplex {
		t.Fatalf("string folding: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	lets := strings.Repeat("let a = 1;\n", 22_000) // esbuild takes tens of seconds
	if _, _, err := Check(ctx, lets, TypeScript, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("duplicate lets past the deadline: %v", err)
	}
	if js, _, err := Check(context.Background(), "return 1 as number", TypeScript, nil); err != nil || !strings.Contains(js, "return 1") {
		t.Fatalf("after the bounds: %q, %v", js, err)
	}
}

// TestJavaScriptFastPathStaysHere: cells that need no parse never reach
// a parser process.
func TestJavaScriptFastPathStaysHere(t *testing.T) {
	for _, c := range []string{"return 1", "const a = await tools.x({})\na.length", "x = 1"} {
		if _, _, err := checkHere(c, JavaScript, nil); err == errNeedParser {
			t.Errorf("%q needed the parser", c)
		}
	}
}
