package ops

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// Redactor keeps secrets (the bearer token, the store key, OAuth client
// secrets) out of a log, whatever logged them: each is replaced by
// "[redacted]" in the message and in every string value. It is the net
// under the rule that no code logs a secret at all. Secrets can be added
// after the handler is made, as configuration reveals them; the zero value
// redacts nothing.
type Redactor struct {
	p  atomic.Pointer[redaction]
	mu sync.Mutex
}

type redaction struct {
	r       *strings.Replacer
	secrets []string
}

// Add adds secrets to redact; values shorter than 8 bytes are ignored.
func (x *Redactor) Add(secrets ...string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var keep []string
	if old := x.p.Load(); old != nil {
		keep = old.secrets
	}
	for _, s := range secrets {
		if len(s) >= minSecretBytes && !slices.Contains(keep, s) {
			keep = append(slices.Clip(keep), s)
		}
	}
	if len(keep) == 0 {
		return
	}
	// The longest first, so that a secret containing another goes whole.
	slices.SortFunc(keep, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, s := range keep {
		pairs = append(pairs, s, "[redacted]")
	}
	x.p.Store(&redaction{strings.NewReplacer(pairs...), keep})
}

// Handler wraps h.
func (x *Redactor) Handler(h slog.Handler) slog.Handler { return redactor{h, x} }

type redactor struct {
	slog.Handler
	x *Redactor
}

func (h redactor) clean(s string) string {
	d := h.x.p.Load()
	if d == nil {
		return s
	}
	for _, x := range d.secrets {
		if strings.Contains(s, x) {
			return d.r.Replace(s)
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
	if h.x.p.Load() == nil {
		return h.Handler.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, h.clean(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

// WithAttrs cleans the attributes with the secrets known now: a logger
// made before a secret was added may carry it in such attributes.
func (h redactor) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return redactor{h.Handler.WithAttrs(out), h.x}
}

func (h redactor) WithGroup(name string) slog.Handler {
	return redactor{h.Handler.WithGroup(name), h.x}
}
