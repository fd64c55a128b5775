package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/mcpserve"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// opsFlags are serve's operating flags (docs/operations.md).
type opsFlags struct {
	metrics, audit, logFormat, logLevel *string
	traceContent                        *bool
}

func addOpsFlags(fs *flag.FlagSet) opsFlags {
	return opsFlags{
		metrics:      fs.String("metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics, on a listener of their own; an address that is not loopback needs the bearer token, which every scrape must then send"),
		audit:        fs.String("audit", "", "append an audit record (JSON lines, hash-chained) per exec and wait leg and per nested call to `FILE`; one file per replica"),
		logFormat:    fs.String("log-format", "text", "log format: "+ops.LogFormats),
		logLevel:     fs.String("log-level", "info", "log level: debug, info, warn or error"),
		traceContent: fs.Bool("trace-content", false, "with traces on (OTEL_* variables), put cell code, nested calls' arguments and their errors' text in spans, cut to 4 KiB; they may hold secrets"),
	}
}

// apply sets the metrics in opts, before opts are validated.
func (f opsFlags) apply(opts *mcpserve.Options) {
	if *f.metrics != "" {
		opts.Metrics, opts.MetricsAddr = ops.NewMetrics(), *f.metrics
	}
}

// setup makes serve's logger, its observer and, as the flags ask, its
// audit trail, into opts and so. What it opened goes with the returned
// close.
func (f opsFlags) setup(ctx context.Context, opts *mcpserve.Options, so *serveSettings, stderr io.Writer) (*slog.Logger, func(), error) {
	h, err := ops.NewLogHandler(stderr, *f.logFormat, *f.logLevel)
	if err != nil {
		return nil, nil, err
	}
	so.redactor = &ops.Redactor{}
	so.secret(opts.Token)
	logger := slog.New(dropConfigWarnings{so.redactor.Handler(h)})
	so.observer = &mcpserve.Observer{TraceContent: *f.traceContent}
	opts.Logger, opts.Observer, so.metrics = logger, so.observer, opts.Metrics
	closeTraces, err := traces(ctx, so.observer, logger)
	if err != nil {
		return nil, nil, err
	}
	if *f.audit == "" {
		return logger, closeTraces, nil
	}
	a, err := ops.OpenAudit(*f.audit)
	if err != nil {
		closeTraces()
		return nil, nil, err
	}
	opts.Audit = a
	return logger, func() {
		if err := a.Close(); err != nil {
			logger.Error("audit trail not closed cleanly", "error", err)
		}
		closeTraces()
	}, nil
}

// traceFlush bounds how long serve, stopping, spends sending its last spans.
const traceFlush = 5 * time.Second

// traces starts the trace pipeline the OTEL_* variables ask for, if any, as
// the observer's tracer; the returned function flushes and stops it.
func traces(ctx context.Context, o *mcpserve.Observer, logger *slog.Logger) (func(), error) {
	tp, err := ops.NewTracerProvider(ctx, attribute.String("service.version", moduleVersion()))
	if err != nil || tp == nil {
		return func() {}, err
	}
	// The SDK reports export failures here, through the redacting log.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { logger.Warn("traces not exported", "error", err) }))
	o.Tracer = tp
	logger.Info("exporting traces over OTLP")
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceFlush)
		defer cancel()
		if err := tp.Shutdown(sctx); err != nil {
			logger.Warn("traces not flushed", "error", err)
		}
	}, nil
}

// traceServers gives the MCP servers' client the observer's tracer.
func (so *serveSettings) traceServers(o *mcp.Options) {
	if so == nil || so.observer == nil || so.observer.Tracer == nil {
		return
	}
	o.Tracer, o.CallContext = so.observer.Tracer, so.observer.CallContext
}

// secret adds values that must never reach the log, nor (with redact on)
// the model.
func (so *serveSettings) secret(values ...string) {
	if so != nil {
		so.secrets = append(so.secrets, values...)
	}
	if so != nil && so.redactor != nil {
		so.redactor.Add(values...)
	}
}

// hooks, meter and watchServers put serve's observers into what newEnv
// builds: the decision hooks, the run store, the downstream servers.
func (so *serveSettings) hooks(h tool.Hooks) tool.Hooks {
	if so == nil || so.observer == nil {
		return h
	}
	return so.observer.Hooks(h)
}

func (so *serveSettings) meter(runs store.Runs) store.Runs {
	if so == nil || so.metrics == nil && (so.observer == nil || so.observer.Tracer == nil) || runs == nil {
		return runs
	}
	return meteredStore{runs, so.metrics}
}

func (so *serveSettings) watchServers(c *mcp.Client) {
	if so == nil || so.metrics == nil {
		return
	}
	so.metrics.ReadServers(func() []ops.Server {
		var out []ops.Server
		for _, s := range c.Servers() {
			out = append(out, ops.Server{Name: s.Name, Up: s.Up, Connects: s.Connects})
		}
		return out
	})
}

// ready is /readyz: every MCP server initialized once (a server down
// later shows in codemode_downstream_up, and does not take the replica
// out of rotation), and the run store reachable. Its words name no
// server: the probe needs no token.
func (e *env) ready(ctx context.Context) error {
	var errs []error
	if e.mcp != nil {
		waiting := 0
		for _, s := range e.mcp.Servers() {
			if s.Connects == 0 {
				waiting++
			}
		}
		if waiting > 0 {
			errs = append(errs, fmt.Errorf("%d MCP server(s) not initialized yet", waiting))
		}
	}
	if e.runs != nil {
		if _, err := e.runs.Alive(ctx, "readyz"); err != nil {
			errs = append(errs, errors.New("run store unreachable"))
		}
	}
	return errors.Join(errs...)
}

// meteredStore times every run store operation and counts its errors, and
// notes a parked run's snapshot size on the span of the leg that parked it.
// Its metrics may be nil (traces only).
type meteredStore struct {
	store.Runs
	m *ops.Metrics
}

func (s meteredStore) observe(op string, start time.Time, err error) {
	s.m.StoreOp(op, time.Since(start), err)
}

func (s meteredStore) Park(ctx context.Context, rec store.ParkedRun) (err error) {
	defer func(t time.Time) { s.observe("park", t, err) }(time.Now())
	s.m.Snapshot(len(rec.State))
	trace.SpanFromContext(ctx).SetAttributes(attribute.Int("codemode.snapshot.bytes", len(rec.State)))
	return s.Runs.Park(ctx, rec)
}

func (s meteredStore) Claim(ctx context.Context, id string, caller tool.Scope, lease time.Duration) (_ store.ParkedRun, _ map[abi.Ticket]abi.Outcome, err error) {
	defer func(t time.Time) { s.observe("claim", t, err) }(time.Now())
	return s.Runs.Claim(ctx, id, caller, lease)
}

func (s meteredStore) Settled(ctx context.Context, id string) (_ map[abi.Ticket]abi.Outcome, err error) {
	defer func(t time.Time) { s.observe("settled", t, err) }(time.Now())
	return s.Runs.Settled(ctx, id)
}

func (s meteredStore) Settle(ctx context.Context, id string, ticket abi.Ticket, out abi.Outcome) (err error) {
	defer func(t time.Time) { s.observe("settle", t, err) }(time.Now())
	return s.Runs.Settle(ctx, id, ticket, out)
}

func (s meteredStore) Release(ctx context.Context, id string) (err error) {
	defer func(t time.Time) { s.observe("release", t, err) }(time.Now())
	return s.Runs.Release(ctx, id)
}

func (s meteredStore) Remove(ctx context.Context, id string) (err error) {
	defer func(t time.Time) { s.observe("remove", t, err) }(time.Now())
	return s.Runs.Remove(ctx, id)
}

func (s meteredStore) DropSession(ctx context.Context, sess store.Session) (err error) {
	defer func(t time.Time) { s.observe("drop_session", t, err) }(time.Now())
	return s.Runs.DropSession(ctx, sess)
}

func (s meteredStore) Beat(ctx context.Context, replica string, ttl time.Duration) (err error) {
	defer func(t time.Time) { s.observe("beat", t, err) }(time.Now())
	return s.Runs.Beat(ctx, replica, ttl)
}

func (s meteredStore) Alive(ctx context.Context, replica string) (_ bool, err error) {
	defer func(t time.Time) { s.observe("alive", t, err) }(time.Now())
	return s.Runs.Alive(ctx, replica)
}

const auditSynopsis = "verify FILE"

// auditCommand is "codemode audit verify FILE": it checks the trail's hash
// chain and says where it breaks.
func auditCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("audit", auditSynopsis, stderr)
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) != 2 || positional[0] != "verify" {
		return usageError(stderr, "audit", "usage: codemode audit %s", auditSynopsis)
	}
	path := positional[1]
	f, err := os.Open(path)
	if err != nil {
		return usageError(stderr, "audit", "%v", err)
	}
	defer f.Close()
	n, head, err := ops.VerifyAudit(f)
	if err != nil {
		fmt.Fprintf(stderr, "codemode audit: %s: %v (%d records verified before it)\n", path, err, n)
		return exitFailed
	}
	fmt.Fprintf(stdout, "%s: %d records, chain intact; head %s\n", path, n, head)
	return exitOK
}
