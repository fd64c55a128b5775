package ops

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// LogFormats are the values of --log-format.
const LogFormats = "text|json"

// NewLogHandler is the handler of serve's logs: slog's text or JSON
// handler at level ("debug", "info", "warn", "error", or slog's "info+2"
// forms).
func NewLogHandler(w io.Writer, format, level string) (slog.Handler, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: use debug, info, warn or error", level)
	}
	o := &slog.HandlerOptions{Level: l}
	switch format {
	case "text", "":
		return slog.NewTextHandler(w, o), nil
	case "json":
		return slog.NewJSONHandler(w, o), nil
	}
	return nil, fmt.Errorf("log format %q: use text or json", format)
}

// minSecretBytes keeps short values out of the redaction list: replacing
// every "a" would garble the log without hiding anything.
const minSecretBytes = 8

// Redact wraps h so that none of secrets (the bearer token, the store key,
// OAuth client secrets) reaches the log, whatever logged it: each is
// replaced by "[redacted]" in the message and in every string value. It is
// the net under the rule that no code logs a secret at all.
func Redact(h slog.Handler, secrets ...string) slog.Handler {
	var keep []string
	for _, s := range secrets {
		if len(s) >= minSecretBytes {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		return h
	}
	return redactor{h, strings.NewReplacer(pairs(keep)...), keep}
}

func pairs(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		out = append(out, s, "[redacted]")
	}
	return out
}

type redactor struct {
	slog.Handler
	r       *strings.Replacer
	secrets []string
}

func (h redactor) clean(s string) string {
	for _, x := range h.secrets {
		if strings.Contains(s, x) {
			return h.r.Replace(s)
		}
	}
	return s
}

func (h redactor) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.clean(v.String()))
	case slog.KindGroup:
		as := v.Group()
		out := make([]slog.Attr, len(as))
		for i, g := range as {
			out[i] = h.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny: // errors, Stringers, slices: printed only when they hold a secret
		if s := fmt.Sprint(v.Any()); h.clean(s) != s {
			return slog.String(a.Key, h.clean(s))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func (h redactor) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.clean(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h redactor) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return redactor{h.Handler.WithAttrs(out), h.r, h.secrets}
}

func (h redactor) WithGroup(name string) slog.Handler {
	return redactor{h.Handler.WithGroup(name), h.r, h.secrets}
}
