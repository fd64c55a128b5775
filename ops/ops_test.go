package ops

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestNilMetricsRecordNothing(t *testing.T) {
	var m *Metrics
	m.LegStarted("exec")
	m.LegFinished("exec", "completed", "", false, time.Millisecond)
	m.NestedCall("core", DecisionAllowed, OutcomeOK, time.Millisecond)
	m.StoreOp("park", time.Millisecond, nil)
	m.Snapshot(10)
	m.AuditError()
	m.ReadGauges(func() Gauges { return Gauges{} })
	m.ReadServers(nil)
	var a *Audit
	if err := a.Append(Record{}); err != nil {
		t.Fatal(err)
	}
}

// A cell calling thousands of distinct made-up ids, or a configuration with
// thousands of servers, leaves the series count bounded.
func TestLabelsStayBounded(t *testing.T) {
	m := NewMetrics()
	for i := range 5000 {
		m.NestedCall(fmt.Sprintf("server%d", i), DecisionDenied, OutcomeError, time.Millisecond)
		m.LegFinished("exec", "failed", fmt.Sprintf("code_%d", i), false, time.Millisecond)
	}
	m.NestedCall(strings.Repeat("x", 100), DecisionDenied, OutcomeError, 0)
	if n := series(t, m, "codemode_nested_calls_total"); n != maxServers+1 {
		t.Fatalf("%d nested-call series, want %d", n, maxServers+1)
	}
	if n := series(t, m, "codemode_cells_finished_total"); n != maxCodes+1 {
		t.Fatalf("%d finished series, want %d", n, maxCodes+1)
	}
	m = NewMetrics()
	m.ReadServers(func() []Server {
		var s []Server
		for i := range 1000 {
			s = append(s, Server{Name: fmt.Sprintf("s%d", i), Up: true, Connects: 3})
		}
		return s
	})
	if n := series(t, m, "codemode_downstream_up"); n != maxServers+1 {
		t.Fatalf("%d downstream series", n)
	}
}

func TestRedact(t *testing.T) {
	var buf bytes.Buffer
	h, err := NewLogHandler(&buf, "json", "debug")
	if err != nil {
		t.Fatal(err)
	}
	const tok, key = "tok-0123456789abcdef", "key-0123456789abcdef0123456789abcdef"
	var x Redactor
	l := slog.New(x.Handler(h))
	l.Info("before " + tok) // nothing to redact yet
	x.Add(tok, key, "short")
	l = l.With("at", "start "+tok)
	l.Debug("token "+tok, "err", errors.New("bad key "+key), slog.Group("g", "k", key), "list", []string{tok})
	l.Info("short stays", "v", "short")
	out := buf.String()
	out = out[strings.Index(out, "\n")+1:]
	if strings.Contains(out, tok) || strings.Contains(out, key) {
		t.Fatalf("a secret reached the log:\n%s", out)
	}
	if !strings.Contains(out, `"v":"short"`) || strings.Count(out, "[redacted]") != 6 {
		t.Fatalf("redaction went wrong:\n%s", out)
	}
	for _, bad := range [][2]string{{"xml", "info"}, {"text", "loud"}} {
		if _, err := NewLogHandler(&buf, bad[0], bad[1]); err == nil {
			t.Fatalf("accepted %v", bad)
		}
	}
}

// series counts the series of one metric family.
func series(t *testing.T, m *Metrics, name string) int {
	t.Helper()
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}

// Pin events and redactions are counted under bounded labels: an event
// outside the fixed set, or kinds past the bound, are "other".
func TestTrustCounters(t *testing.T) {
	m := NewMetrics()
	m.PinEvent("gh", "quarantined")
	m.PinEvent("gh", "made-up")
	for i := range maxRedactionKinds + 5 {
		m.Redacted(fmt.Sprint("kind-", i), 2)
	}
	var nilM *Metrics
	nilM.PinEvent("gh", "pinned")
	nilM.Redacted("jwt", 1)
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	series := map[string]int{}
	for _, f := range fams {
		series[f.GetName()] = len(f.GetMetric())
	}
	if series["codemode_tool_pin_events_total"] != 2 || series["codemode_redactions_total"] != maxRedactionKinds+1 {
		t.Fatalf("series: %v", series)
	}
}
