package ops

import "github.com/prometheus/client_golang/prometheus"

// trustMetrics count what the trust defences did: tool pins (a tool pinned
// on first sight, quarantined, re-pinned) and redacted credentials.
type trustMetrics struct {
	pins       *prometheus.CounterVec
	redactions *prometheus.CounterVec
	events     map[string]bool
	kinds      *bounded
}

// Pin events: the values PinEvent counts; any other is Overflow.
var pinEvents = []string{"pinned", "quarantined", "repinned", "unavailable"}

// maxRedactionKinds bounds the kind label: the redactor's kinds are a
// fixed set of about twenty.
const maxRedactionKinds = 32

func newTrustMetrics(f promauto) trustMetrics {
	t := trustMetrics{
		pins: f.counterVec("codemode_tool_pin_events_total",
			"Downstream tool pin events, by server: pinned (first sight), quarantined (definition changed), repinned (trust auto), unavailable (pin store failed).", "server", "event"),
		redactions: f.counterVec("codemode_redactions_total", "Credentials replaced by a redaction marker, by kind.", "kind"),
		events:     map[string]bool{},
		kinds:      newBounded(maxRedactionKinds),
	}
	for _, e := range pinEvents {
		t.events[e] = true
	}
	return t
}

// PinEvent counts one pin event of a downstream server's tool.
func (m *Metrics) PinEvent(server, event string) {
	if m == nil {
		return
	}
	if !m.trust.events[event] {
		event = Overflow
	}
	m.trust.pins.WithLabelValues(m.servers.value(server), event).Inc()
}

// Redacted counts n credentials of kind replaced.
func (m *Metrics) Redacted(kind string, n int) {
	if m == nil || n <= 0 {
		return
	}
	m.trust.redactions.WithLabelValues(m.trust.kinds.value(kind)).Add(float64(n))
}
