package mcpserve

import (
	"context"
	"log/slog"
)

// sessionIDLogger is the logger handed to the MCP SDK: its records that
// carry a session id (session connected, disconnected, resource
// subscriptions) drop to DEBUG. A streamable HTTP session id is
// bearer-like: whoever reads it from an INFO log could join the session.
func sessionIDLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return nil
	}
	return slog.New(sessionIDHandler{l.Handler()})
}

type sessionIDHandler struct{ slog.Handler }

func (h sessionIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level > slog.LevelDebug && hasSessionID(r) {
		r.Level = slog.LevelDebug
		if !h.Handler.Enabled(ctx, r.Level) {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func hasSessionID(r slog.Record) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == "session_id" || a.Key == "sessionID" || a.Key == "Mcp-Session-Id"
		return !found
	})
	return found
}

func (h sessionIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return sessionIDHandler{h.Handler.WithAttrs(as)}
}

func (h sessionIDHandler) WithGroup(name string) slog.Handler {
	return sessionIDHandler{h.Handler.WithGroup(name)}
}
