package ops

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"
)

// The per-event costs of the operating surface, apart from the cells they
// observe: a nested call counted, a leg counted, a call record appended
// (not synced: a call record never is), a log line through the redactor.
func BenchmarkMetricsNestedCall(b *testing.B) {
	m := NewMetrics()
	for b.Loop() {
		m.NestedCall("core", DecisionAllowed, OutcomeOK, time.Millisecond)
	}
}

func BenchmarkMetricsLeg(b *testing.B) {
	m := NewMetrics()
	for b.Loop() {
		m.LegStarted("exec")
		m.LegFinished("exec", "completed", "", false, time.Millisecond)
	}
}

func BenchmarkAuditCallRecord(b *testing.B) {
	a, err := OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	args := Digest([]byte(`{"a":1}`))
	for b.Loop() {
		a.Append(Record{Kind: "call", Session: "mcp_0123456789abcdef01234567", Call: "tool_search_code:mcp_call_1:call:1",
			Parent: "mcp_call_1", Tool: "openclaw:core:add", Server: "core", ArgsSHA256: args, ArgsBytes: 7,
			Decision: DecisionAllowed, Outcome: OutcomeOK, DurationMs: 0.05})
	}
}

func BenchmarkLogLine(b *testing.B) {
	for _, redact := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "redacted"}[redact]
		b.Run(name, func(b *testing.B) {
			var h slog.Handler = slog.NewTextHandler(io.Discard, nil)
			if redact {
				x := &Redactor{}
				x.Add("tok-0123456789abcdef", "key-0123456789abcdef0123456789abcdef", "oauth-secret-0123")
				h = x.Handler(h)
			}
			l := slog.New(h)
			for b.Loop() {
				l.Info("cell leg", "kind", "exec", "session", "mcp_0123456789abcdef01234567", "run", "", "call", "mcp_call_1",
					"status", "completed", "duration_ms", 0.5, "nested_calls", 1)
			}
		})
	}
}
