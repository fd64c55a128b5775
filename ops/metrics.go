package ops

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Label bounds: error codes and kinds are enums of the contract, servers
// come from the configuration.
const (
	maxCodes   = 48
	maxServers = 64
)

// Metrics are the Prometheus series of one serve process. A nil *Metrics
// records nothing, so callers need no switch of their own and metrics off
// costs a nil check.
//
// No label carries a run id, a session, a tool id or any text a cell
// chose: kinds, statuses and outcomes are fixed sets, error codes and
// server names are bounded (see [Overflow]).
type Metrics struct {
	reg *prometheus.Registry

	started       *prometheus.CounterVec
	finished      *prometheus.CounterVec
	cellSeconds   *prometheus.HistogramVec
	calls         *prometheus.CounterVec
	callSeconds   *prometheus.HistogramVec
	busy          prometheus.Counter
	snapshotBytes prometheus.Histogram
	storeErrors   *prometheus.CounterVec
	storeSeconds  *prometheus.HistogramVec
	auditErrors   prometheus.Counter
	trust         trustMetrics // trust.go

	codes, servers *bounded
	gauges         atomic.Pointer[func() Gauges]
	downstream     atomic.Pointer[func() []Server]
}

// Gauges are the levels read at each scrape.
type Gauges struct {
	Sessions   int // MCP sessions (stateless: principals) this process holds
	ParkedRuns int // runs this process left waiting for a wait
}

// Server is one downstream MCP server as a scrape sees it.
type Server struct {
	Name     string
	Up       bool
	Connects uint64 // successful connections so far; more than one is a reconnect
}

// Cell kinds, outcomes and decisions: the fixed label values.
const (
	OutcomeOK    = "ok"
	OutcomeError = "error"

	DecisionAllowed  = "allowed"  // no approval needed, no hook blocked it
	DecisionApproved = "approved" // a person (or the approval policy) said yes
	DecisionRefused  = "refused"  // approval was asked and not given
	DecisionDenied   = "denied"   // refused before any approval: policy, a hook, an unknown tool
)

// NewMetrics returns the metrics of a serve process, with the Go runtime's
// and the process's own.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), codes: newBounded(maxCodes), servers: newBounded(maxServers)}
	f := promauto{m.reg}
	m.started = f.counterVec("codemode_cells_started_total", "Cell legs started (exec, wait, tool_search_code).", "kind")
	m.finished = f.counterVec("codemode_cells_finished_total", "Cell legs finished, by status and error code (empty unless failed).", "kind", "status", "code")
	m.cellSeconds = f.histogramVec("codemode_cell_duration_seconds", "Wall time of a cell leg.",
		[]float64{.001, .005, .01, .05, .1, .5, 1, 5, 10, 30, 60, 300}, "kind", "status")
	m.calls = f.counterVec("codemode_nested_calls_total", "Nested tool calls of cells, by server (core, a plugin, an MCP server, unknown) and outcome.", "server", "decision", "outcome")
	m.callSeconds = f.histogramVec("codemode_nested_call_duration_seconds", "Wall time of a nested tool call.",
		[]float64{.0005, .001, .005, .01, .05, .1, .5, 1, 5, 30, 120}, "server")
	m.busy = f.counter("codemode_busy_refusals_total", "Cells refused because every cell slot was taken (runtime_unavailable, busy).")
	m.snapshotBytes = f.histogram("codemode_snapshot_bytes", "Size of a parked run's state written to the run store.",
		prometheus.ExponentialBuckets(1<<10, 4, 10))
	m.storeErrors = f.counterVec("codemode_store_errors_total", "Run store operations that returned an error, by operation.", "op")
	m.storeSeconds = f.histogramVec("codemode_store_duration_seconds", "Latency of run store operations.",
		[]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .5, 1, 5}, "op")
	m.auditErrors = f.counter("codemode_audit_errors_total", "Audit records that could not be written.")
	m.trust = newTrustMetrics(f)
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), levels{m})
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Registry is where the metrics live, for tests and for embedding programs
// that serve them themselves.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// LegStarted counts a cell leg of kind ("exec", "wait", "tool_search_code").
func (m *Metrics) LegStarted(kind string) {
	if m == nil {
		return
	}
	m.started.WithLabelValues(kind).Inc()
}

// LegFinished counts a finished leg with its status and error code. A
// busy refusal is also counted on its own.
func (m *Metrics) LegFinished(kind, status, code string, busy bool, d time.Duration) {
	if m == nil {
		return
	}
	m.finished.WithLabelValues(kind, status, m.codes.value(code)).Inc()
	m.cellSeconds.WithLabelValues(kind, status).Observe(d.Seconds())
	if busy {
		m.busy.Inc()
	}
}

// NestedCall counts one nested call of a cell.
func (m *Metrics) NestedCall(server, decision, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	server = m.servers.value(server)
	m.calls.WithLabelValues(server, decision, outcome).Inc()
	m.callSeconds.WithLabelValues(server).Observe(d.Seconds())
}

// StoreOp records one run store operation (op is its method: park, claim,
// settle, ...).
func (m *Metrics) StoreOp(op string, d time.Duration, err error) {
	if m == nil {
		return
	}
	m.storeSeconds.WithLabelValues(op).Observe(d.Seconds())
	if err != nil {
		m.storeErrors.WithLabelValues(op).Inc()
	}
}

// Snapshot records the size of a parked run's state.
func (m *Metrics) Snapshot(bytes int) {
	if m == nil {
		return
	}
	m.snapshotBytes.Observe(float64(bytes))
}

// AuditError counts a record the audit trail lost.
func (m *Metrics) AuditError() {
	if m == nil {
		return
	}
	m.auditErrors.Inc()
}

// ReadGauges sets what each scrape reads the session and parked-run levels
// from.
func (m *Metrics) ReadGauges(f func() Gauges) {
	if m != nil {
		m.gauges.Store(&f)
	}
}

// ReadServers sets what each scrape reads the downstream servers from.
func (m *Metrics) ReadServers(f func() []Server) {
	if m != nil {
		m.downstream.Store(&f)
	}
}

var (
	descSessions   = prometheus.NewDesc("codemode_sessions", "MCP sessions held (stateless: principals seen).", nil, nil)
	descParked     = prometheus.NewDesc("codemode_parked_runs", "Runs this process left waiting for a wait.", nil, nil)
	descUp         = prometheus.NewDesc("codemode_downstream_up", "1 while a downstream MCP server is connected.", []string{"server"}, nil)
	descReconnects = prometheus.NewDesc("codemode_downstream_reconnects_total", "Connections to a downstream MCP server after its first.", []string{"server"}, nil)
)

// levels collects the gauges read at scrape time.
type levels struct{ m *Metrics }

func (l levels) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descSessions, descParked, descUp, descReconnects} {
		ch <- d
	}
}

func (l levels) Collect(ch chan<- prometheus.Metric) {
	if f := l.m.gauges.Load(); f != nil {
		g := (*f)()
		ch <- prometheus.MustNewConstMetric(descSessions, prometheus.GaugeValue, float64(g.Sessions))
		ch <- prometheus.MustNewConstMetric(descParked, prometheus.GaugeValue, float64(g.ParkedRuns))
	}
	if f := l.m.downstream.Load(); f != nil {
		seen := map[string]bool{}
		for _, s := range (*f)() {
			name := l.m.servers.value(s.Name)
			if seen[name] { // past the bound, one "other" series
				continue
			}
			seen[name] = true
			up := 0.0
			if s.Up {
				up = 1
			}
			ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, up, name)
			ch <- prometheus.MustNewConstMetric(descReconnects, prometheus.CounterValue, float64(max(s.Connects, 1)-1), name)
		}
	}
}

// promauto registers what it makes on one registry.
type promauto struct{ prometheus.Registerer }

func (f promauto) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.MustRegister(c)
	return c
}

func (f promauto) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	f.MustRegister(c)
	return c
}

func (f promauto) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	f.MustRegister(h)
	return h
}

func (f promauto) histogram(name, help string, buckets []float64) prometheus.Histogram {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
	f.MustRegister(h)
	return h
}
