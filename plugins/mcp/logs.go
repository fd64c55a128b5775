package mcp

//lint:file-ignore SA1019 servers of 2025-11-25 and older still send log messages (notifications/message); they go into serve's own log for the deprecation window.

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// A server's log lines, its stderr and its notifications/message, go into
// this process's log with the server's name (and a message into the span
// of the one call in flight on it, if any), however a client upstream asks
// for them. A server may write without end, so both are bounded: each line
// is cut to logLineBytes, and a server gets logBurst lines at once and
// logRate a second after that; what is past the rate is counted, not
// logged, and the count is logged when lines flow again. Logging never
// waits on the server, nor the server on the log beyond one line.
const (
	logLineBytes = 1 << 10
	logBurst     = 100
	logRate      = 20 // lines a second
)

// logLimit is a server's token bucket of log lines.
type logLimit struct {
	mu      sync.Mutex
	tokens  float64
	last    time.Time
	dropped int
	now     func() time.Time // for tests; nil means time.Now
}

// take reports whether one more line may be logged now, and how many were
// dropped since the last one that was.
func (l *logLimit) take() (ok bool, dropped int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	if l.last.IsZero() {
		l.tokens = logBurst
	} else {
		l.tokens = min(logBurst, l.tokens+now.Sub(l.last).Seconds()*logRate)
	}
	l.last = now
	if l.tokens < 1 {
		l.dropped++
		return false, 0
	}
	l.tokens--
	dropped, l.dropped = l.dropped, 0
	return true, dropped
}

// logLine logs one line of a server's under its limit, and says whether
// it did.
func logLine(logger *slog.Logger, limit *logLimit, level slog.Level, msg string, attrs ...any) bool {
	ok, dropped := limit.take()
	if !ok {
		return false
	}
	if dropped > 0 {
		attrs = append(attrs, "dropped_before", dropped)
	}
	logger.Log(context.Background(), level, msg, attrs...)
	return true
}

// cutLine is a line as the log keeps it: valid UTF-8, at most
// logLineBytes, with its full size when it was cut.
func cutLine(b []byte) (string, []any) {
	var attrs []any
	if len(b) > logLineBytes {
		attrs = append(attrs, "bytes", len(b))
		b = b[:logLineBytes]
	}
	return strings.ToValidUTF8(string(b), string(utf8.RuneError)), attrs
}

// mcpLevels maps the MCP log levels (RFC 5424's) to slog's.
var mcpLevels = map[sdk.LoggingLevel]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "notice": slog.LevelInfo, "warning": slog.LevelWarn,
	"error": slog.LevelError, "critical": slog.LevelError, "alert": slog.LevelError, "emergency": slog.LevelError,
}

// logMessage takes a server's notifications/message: into the log and the
// span of its one call in flight, and on to the client of the one scope
// with calls in flight when there is a relay (clients that still ask for
// log messages).
func (s *server) logMessage(ctx context.Context, req *sdk.LoggingMessageRequest) {
	p := req.Params
	if p == nil {
		return
	}
	data, _ := json.Marshal(p.Data)
	line, attrs := cutLine(data)
	level, ok := mcpLevels[p.Level]
	if !ok {
		level = slog.LevelInfo
	}
	logger := strings.ToValidUTF8(p.Logger, "")
	if len(logger) > 128 {
		logger = logger[:128]
	}
	logged := logLine(s.log(), &s.logLimit, level, "MCP server log message", append([]any{"level_mcp", string(p.Level), "logger", logger, "data", line}, attrs...)...)
	if span := s.inFlight.only(); logged && span != nil { // under the same limit
		span.AddEvent("log", trace.WithAttributes(attribute.String("log.level", string(p.Level)),
			attribute.String("log.logger", logger), attribute.String("log.data", line)))
	}
	if r := s.c.relay; r != nil {
		if scope, err := s.calls.owner(s.name); err == nil {
			r.Log(ctx, scope, s.name, p)
		}
	}
}
