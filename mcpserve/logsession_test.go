package mcpserve

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer is a log destination the server's goroutines share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A streamable HTTP session id is bearer-like: an INFO log never holds one
// (the SDK logs "server session connected" with it); a DEBUG log does.
func TestSessionIDsOnlyAtDebug(t *testing.T) {
	f := newFixture(t, `true`)
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs lockedBuffer
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s, err := newService(f.rt, &Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: level}))})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.serveHTTP(ctx, ln) }()
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true}, nil)
		call(t, context.Background(), cs, "exec", map[string]string{"code": "return 1"})
		id := cs.ID()
		cs.Close()
		cancel()
		<-done
		got := logs.String()
		if id == "" || !strings.Contains(got, "server session connected") && level == slog.LevelDebug {
			t.Fatalf("level %v: session %q, logs:\n%s", level, id, got)
		}
		if strings.Contains(got, id) != (level == slog.LevelDebug) {
			t.Errorf("level %v: the session id %s in the logs is %v:\n%s", level, id, strings.Contains(got, id), got)
		}
	}
}
