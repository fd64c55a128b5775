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
		js, m, err := Check(ctx, "t", c.code, c.lang, nil)
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
	_, _, err := Check(context.Background(), "t", fold, TypeScript, nil)
	var se *Error
	if !errors.As(err, &se) || se.Reason != ReasonSourceTooComplex {
		t.Fatalf("string folding: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	lets := strings.Repeat("let a = 1;\n", 22_000) // esbuild takes tens of seconds
	if _, _, err := Check(ctx, "t", lets, TypeScript, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("duplicate lets past the deadline: %v", err)
	}
	if js, _, err := Check(context.Background(), "t", "return 1 as number", TypeScript, nil); err != nil || !strings.Contains(js, "return 1") {
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

// TestParserShare: an owner whose cells keep every parser it may hold busy
// waits for its own, while another owner's cell is checked at once.
func TestParserShare(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lets := strings.Repeat("let a = 1;\n", 22_000) // esbuild takes tens of seconds
	ended := make(chan error, MaxParsers)
	for range max(1, MaxParsers-1) {
		go func() { _, _, err := Check(ctx, "greedy", lets, TypeScript, nil); ended <- err }()
	}
	// The greedy owner's share is full once all its parsers are busy.
	for held := 0; held < max(1, MaxParsers-1); {
		time.Sleep(10 * time.Millisecond)
		parsers.mu.Lock()
		if sh := parsers.shares["greedy"]; sh != nil {
			held = len(sh.held)
		}
		parsers.mu.Unlock()
	}
	queued := make(chan error, 1)
	go func() { _, _, err := Check(ctx, "greedy", "return 1 as number", TypeScript, nil); queued <- err }()
	if js, _, err := Check(context.Background(), "other", "return 2 as number", TypeScript, nil); err != nil || !strings.Contains(js, "return 2") {
		t.Fatalf("another owner's cell: %q, %v", js, err)
	}
	select {
	case err := <-queued:
		t.Fatalf("the greedy owner's next cell did not wait for its share: %v", err)
	default:
	}
	cancel()
	for range max(1, MaxParsers-1) {
		if err := <-ended; !errors.Is(err, context.Canceled) {
			t.Errorf("a greedy cell ended with %v", err)
		}
	}
	if err := <-queued; !errors.Is(err, context.Canceled) {
		t.Errorf("the queued greedy cell ended with %v", err)
	}
	parsers.mu.Lock()
	defer parsers.mu.Unlock()
	if n := len(parsers.shares); n != 0 {
		t.Errorf("%d shares left behind", n)
	}
}
